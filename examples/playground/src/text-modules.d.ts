// The seed examples are the demo's fixtures, bundled as text by esbuild.
declare module "*.yaml" {
  const text: string;
  export default text;
}
declare module "*.tags" {
  const text: string;
  export default text;
}
