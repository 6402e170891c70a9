/**
 * The kubelet's credential hash (`hashAuthConfig` in
 * `pkg/credentialprovider/keyring.go`): the SHA-256 of Go's `json.Marshal`
 * of the `AuthConfig` holding username, password and email, empty fields
 * omitted. The pull-credential manager stores it to recognise a secret's
 * credentials later, so it must be byte-for-byte Go's.
 */
import { byteStringToBytes, decodeRune } from "./go-bytes.js";
import { sha256Hex } from "./sha256.js";

const hexDigits = "0123456789abcdef";

/**
 * Go's `encoding/json` string encoding (HTML-safe) of a byte string, as a
 * byte string. As in the Go the vectors were produced with (1.19), only
 * `\n`, `\r` and `\t` get short escapes; backspace and form feed are
 * `\u0008` and `\u000c` like every other control byte (Go 1.22 and later
 * write `\b` and `\f`).
 */
export function goJsonQuote(bytes: string): string {
  let out = '"';
  for (let i = 0; i < bytes.length; ) {
    const b = bytes.charCodeAt(i);
    if (b < 0x80) {
      switch (b) {
        case 0x5c:
        case 0x22:
          out += `\\${bytes[i]}`;
          break;
        case 0x0a:
          out += "\\n";
          break;
        case 0x0d:
          out += "\\r";
          break;
        case 0x09:
          out += "\\t";
          break;
        default:
          out +=
            b < 0x20 || b === 0x3c || b === 0x3e || b === 0x26
              ? `\\u00${hexDigits[b >> 4]}${hexDigits[b & 0xf]}`
              : bytes[i];
      }
      i++;
      continue;
    }
    const { rune, width } = decodeRune(bytes, i);
    if (rune === 0xfffd && width === 1) out += "\\ufffd";
    else if (rune === 0x2028 || rune === 0x2029) out += `\\u202${hexDigits[rune & 0xf]}`;
    else out += bytes.slice(i, i + width);
    i += width;
  }
  return `${out}"`;
}

/**
 * Returns the credential hash of username, password and email given as
 * byte strings (raw UTF-8, possibly invalid, as a decoded `auth` can be).
 */
export function credentialHashOfBytes(username: string, password: string, email: string): string {
  const fields: string[] = [];
  if (username !== "") fields.push(`"username":${goJsonQuote(username)}`);
  if (password !== "") fields.push(`"password":${goJsonQuote(password)}`);
  if (email !== "") fields.push(`"email":${goJsonQuote(email)}`);
  return sha256Hex(byteStringToBytes(`{${fields.join(",")}}`));
}
