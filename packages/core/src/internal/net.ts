/**
 * Go's `net.SplitHostPort`, with which the kubelet keyring compares a
 * registry's host and port with a pattern's and containerd decides which
 * hosts are local.
 */

/** Go's `net.SplitHostPort`; `undefined` where Go returns an error. */
export function SplitHostPort(hostport: string): { host: string; port: string } | undefined {
  const i = hostport.lastIndexOf(":");
  if (i < 0) return undefined;
  let host: string;
  let j = 0;
  let k = 0;
  if (hostport[0] === "[") {
    const end = hostport.indexOf("]");
    if (end < 0 || end + 1 !== i) return undefined;
    host = hostport.slice(1, end);
    j = 1;
    k = end + 1;
  } else {
    host = hostport.slice(0, i);
    if (host.includes(":")) return undefined;
  }
  if (hostport.slice(j).includes("[") || hostport.slice(k).includes("]")) return undefined;
  return { host, port: hostport.slice(i + 1) };
}

/**
 * `SplitHostPort` falling back as the kubelet keyring does: when the host
 * has no valid port, the whole host and an empty port.
 */
export function SplitHostPortLoose(hostport: string): { host: string; port: string } {
  return SplitHostPort(hostport) ?? { host: hostport, port: "" };
}
