export type { ImageName } from "./image-name.js";
