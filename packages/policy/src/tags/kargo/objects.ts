/**
 * A Kargo `Warehouse` (kargo.akuity.io/v1alpha1) read down to one image
 * subscription, with the fields and checks of v1.11.2
 * (`api/v1alpha1/warehouse_types.go`: one top-level key per subscription,
 * any other key than `git`, `image`, `chart` being a generic subscription;
 * `api/v1alpha1/zz_subscription_types.go` for the image subscription, whose
 * regex lists are `allowTagsRegexes`/`ignoreTagsRegexes`).
 */

import { asRecord, type DialectObjectOptions, Reader } from "../common/objects.js";
import type { KargoImageSubscription } from "./subscription.js";

/** A Kargo image subscription read from a Warehouse. */
export interface KargoSubscriptionObject {
  readonly subscription: KargoImageSubscription;
  /** `Warehouse <namespace>/<name> subscription <index>`. */
  readonly source: string;
}

const KARGO_IMAGE_KEYS = [
  "repoURL",
  "imageSelectionStrategy",
  "strictSemvers",
  "constraint",
  "allowTags",
  "allowTagsRegexes",
  "ignoreTags",
  "ignoreTagsRegexes",
  "platform",
  "insecureSkipTLSVerify",
  "discoveryLimit",
  "cacheByTag",
];

/**
 * Reads the image subscription of a Kargo `Warehouse`: subscription
 * `options.subscription` (which must be an image one), or the first image
 * subscription. The webhook's defaults and validation are the dialect's
 * (`selectKargoTag`), not done here. Throws a {@link TagDialectError} for a
 * field of the wrong shape, an unknown field (unless told otherwise), or
 * no image subscription.
 */
export function readKargoWarehouse(
  value: unknown,
  options: DialectObjectOptions & { readonly subscription?: number } = {},
): KargoSubscriptionObject {
  const read: Reader = new Reader(options);
  const root = options.at ?? "Warehouse";
  const { r, name } = read.object(value, root);
  const spec = read.record(r.spec, `${root}.spec`);
  read.onlyKeys(
    spec,
    ["shard", "interval", "freightCreationPolicy", "subscriptions", "freightCreationCriteria"],
    `${root}.spec`,
  );
  const subs = spec.subscriptions;
  if (!Array.isArray(subs) || subs.length === 0) {
    read.fail(`${root}.spec.subscriptions`, "must be a non-empty list", subs);
  }
  if (spec.interval !== undefined) {
    const interval = read.string(spec.interval, `${root}.spec.interval`) as string;
    if (!/^([0-9]+(\.[0-9]+)?(s|m|h))+$/.test(interval)) {
      read.fail(`${root}.spec.interval`, "must be a duration such as 5m0s", interval);
    }
  }
  const policy = read.string(spec.freightCreationPolicy, `${root}.spec.freightCreationPolicy`);
  if (policy !== undefined && policy !== "Automatic" && policy !== "Manual") {
    read.fail(`${root}.spec.freightCreationPolicy`, "must be Automatic or Manual", policy);
  }
  read.string(spec.shard, `${root}.spec.shard`);
  if (spec.freightCreationCriteria !== undefined) {
    const at = `${root}.spec.freightCreationCriteria`;
    const criteria = read.record(spec.freightCreationCriteria, at);
    read.onlyKeys(criteria, ["expression"], at);
    read.string(criteria.expression, `${at}.expression`);
  }
  // Each subscription has exactly one top-level key: git, image, chart, or
  // the type of a generic subscription.
  subs.forEach((s: unknown, i: number) => {
    const sub = read.record(s, `${root}.spec.subscriptions[${i}]`);
    const keys = Object.keys(sub);
    if (keys.length !== 1) {
      read.fail(
        `${root}.spec.subscriptions[${i}]`,
        `must have exactly one top-level field, has ${keys.length}`,
        keys,
      );
    }
  });
  const wanted = options.subscription;
  const at =
    wanted === undefined
      ? subs.findIndex((s: unknown) => asRecord(s)?.image !== undefined)
      : wanted;
  if (wanted !== undefined && (at >= subs.length || asRecord(subs[at])?.image === undefined)) {
    read.fail(`${root}.spec.subscriptions[${wanted}]`, "is not an image subscription");
  }
  if (at < 0) read.fail(`${root}.spec.subscriptions`, "has no image subscription");
  const path = `${root}.spec.subscriptions[${at}].image`;
  const image = read.record(asRecord(subs[at])?.image, path);
  read.onlyKeys(image, KARGO_IMAGE_KEYS, path);
  for (const key of ["repoURL", "imageSelectionStrategy", "constraint", "allowTags", "platform"]) {
    read.string(image[key], `${path}.${key}`);
  }
  for (const key of ["allowTagsRegexes", "ignoreTagsRegexes", "ignoreTags"]) {
    read.strings(image[key], `${path}.${key}`);
  }
  for (const key of ["strictSemvers", "insecureSkipTLSVerify", "cacheByTag"]) {
    read.boolean(image[key], `${path}.${key}`);
  }
  if (image.discoveryLimit !== undefined && !Number.isInteger(image.discoveryLimit)) {
    read.fail(`${path}.discoveryLimit`, "must be an integer", image.discoveryLimit);
  }
  const subscription: Record<string, unknown> = Object.create(null);
  for (const key of KARGO_IMAGE_KEYS) {
    if (image[key] !== undefined) subscription[key] = image[key];
  }
  return {
    subscription: { ...subscription } as KargoImageSubscription,
    source: `Warehouse ${name} subscription ${at}`,
  };
}
