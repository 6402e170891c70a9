/**
 * Redaction for anything that ends up in an error, a log line or a metric
 * label: URLs lose their userinfo and the values of query parameters that
 * can carry secrets.
 */
const secretParams =
  /^(access_token|token|refresh_token|password|client_secret|code|sig|signature|x-amz-signature|x-amz-credential|x-goog-signature)$/i;

/**
 * Returns `url` with userinfo removed and secret-bearing query values replaced by `REDACTED`.
 */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    for (const key of [...u.searchParams.keys()]) {
      if (secretParams.test(key)) u.searchParams.set(key, "REDACTED");
    }
    return u.href;
  } catch {
    return "(unparseable URL)";
  }
}
