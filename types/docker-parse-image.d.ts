/** Types for `docker-parse-image` 3.0.1 (a dev dependency used by a benchmark and a comparison test). */
declare module "docker-parse-image" {
  interface DockerParsedImage {
    registry: string | null;
    namespace: string | null;
    repository: string;
    tag: string | null;
    name: string;
    fullname: string;
  }
  function dockerParseImage(image: string): DockerParsedImage | null;
  export = dockerParseImage;
}
