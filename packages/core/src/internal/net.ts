/**
 * Go's `net.SplitHostPort`, as the kubelet keyring uses it to compare a
 * registry's host and port with a pattern's.
 */

/**
 * Go's `net.SplitHostPort`, falling back as the keyring does: when the
 * host has no valid port, the whole host and an empty port.
 */
export function SplitHostPortLoose(hostport: string): { host: string; port: string } {
  const whole = { host: hostport, port: "" };
  const i = hostport.lastIndexOf(":");
  if (i < 0) return whole;
  let host: string;
  let j = 0;
  let k = 0;
  if (hostport[0] === "[") {
    const end = hostport.indexOf("]");
    if (end < 0 || end + 1 !== i) return whole;
    host = hostport.slice(1, end);
    j = 1;
    k = end + 1;
  } else {
    host = hostport.slice(0, i);
    if (host.includes(":")) return whole;
  }
  if (hostport.slice(j).includes("[") || hostport.slice(k).includes("]")) return whole;
  return { host, port: hostport.slice(i + 1) };
}
