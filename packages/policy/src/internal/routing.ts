/** kuik's label selectors, for the routing oracle. */
export { parseLabelSelector } from "../routing/label-selector.js";
