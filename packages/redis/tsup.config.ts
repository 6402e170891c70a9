import { packageBuild } from "../../scripts/tsup-package.js";

export default packageBuild(new URL("./package.json", import.meta.url));
