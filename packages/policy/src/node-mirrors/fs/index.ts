/**
 * Node-only: reads a real node's runtime mirror configuration into the
 * plain maps the pure readers take, so the same resolution runs on a node,
 * in CI and in a browser. Read-only; only regular files are read (a FIFO or
 * device among the config files would otherwise block or stream forever),
 * each up to a size cap and all together up to a number of directory
 * entries and of bytes; directories are walked to the depth the runtimes
 * look (containerd: `<root>/<host>/<file>`; containers/image: the `.conf`
 * files directly in `registries.conf.d`).
 *
 * @packageDocumentation
 */
export {
  type NodeContainerdFiles,
  type NodeRegistriesConf,
  type ReadNodeOptions,
  readContainerdHostDirs,
  readRegistriesConf,
} from "./read.js";
export { type ReadNodeRegistriesConfOptions, readNodeRegistriesConf } from "./registries.js";
