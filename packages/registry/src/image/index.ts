export type { RegistryImage } from "./image-name.js";
