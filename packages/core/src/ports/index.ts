/**
 * `@kubeimg/core/ports`: the interfaces through which kubeimg's pure
 * decisions meet the outside world, declared once. `@kubeimg/policy` asks
 * for them (routing probes availability, tag selection lists tags and
 * resolves digests, the pull-credential manager reads the time) and
 * re-exports them; `@kubeimg/registry` implements them under the same names;
 * tests and applications pass fakes. Neither package imports the other, and
 * no copy of these shapes has to be kept in sync, because there is one.
 *
 * Types only: importing this subpath adds nothing to a bundle.
 *
 * @packageDocumentation
 */

export type {
  Availability,
  AvailabilityChecker,
  AvailabilityCheckOptions,
  Clock,
  DigestResolver,
  PortCallOptions,
  SecretReader,
  SecretRef,
  TagImageMetadata,
  TagLister,
  TagMetadataCallOptions,
  TagMetadataSource,
  Timers,
} from "./types.js";
