/**
 * What a failed connection to the external broker (mqtt.url) means for the user: one line naming
 * the setting to change and how, instead of the library's text (mqtt.js' CONNACK refusals, Node's
 * TLS verification codes, OpenSSL's alerts). Pure: the error and the URL in, the line out.
 *
 * `line` names settings, never the broker's address or the account, so /health (which answers
 * without login) can show it; the log adds the library's own text beside it.
 * `answered`: the broker (or something at its address) answered, so "unreachable" would be wrong.
 */

export interface ConnectionProblem {
  readonly line: string;
  readonly answered: boolean;
}

interface LibraryError {
  readonly message: string;
  readonly code?: string | number;
}

const PASSWORD = 'the password (MOWABILITY_MQTT_PASSWORD or the credential mqtt.password)';

/** MQTT 3.1.1 CONNACK return codes 1-5 (mqtt.js reports them as the error's numeric `code`). */
const REFUSALS: Record<number, string> = {
  1: 'the broker refused the connection ("unacceptable protocol version"): it does not speak MQTT 3.1.1; check mqtt.url names an MQTT broker',
  2: 'the broker refused the client id ("identifier rejected"): set mqtt.clientId to an id the broker accepts',
  3: 'the broker refused the connection ("server unavailable"): it is up but not serving MQTT now; see its log',
  4: `the broker refused the login ("bad username or password"): check mqtt.username and ${PASSWORD}`,
  5: `the broker refused the login ("not authorized"): check mqtt.username and ${PASSWORD}; a broker with allow_anonymous false needs both`,
};

/** Node's certificate verification codes that mean "signed by a CA this daemon does not trust". */
const UNTRUSTED_CA = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

/** Nothing answered at the address: the one case where "unreachable" is right. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

/**
 * The library's text without what it adds about this machine or the broker (OpenSSL's source
 * file, the address it connected to or compared): the part before the first colon, OpenSSL's alert.
 */
function shortText(err: LibraryError): string {
  const alert = /((?:tlsv\d+|sslv3) alert [a-z ]+)/i.exec(err.message);
  if (alert?.[1]) return alert[1].trim();
  return err.message.split(':')[0]?.trim() ?? '';
}

function tlsProblem(code: string, text: string, url: string): string | undefined {
  if (UNTRUSTED_CA.has(code))
    return `the broker's TLS certificate is signed by a CA this daemon does not trust ("${text}"): set mqtt.ca to the file of the CA that signed it (PEM)`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the broker's TLS certificate does not name the host in mqtt.url ("${text}"): put a host name or address it lists (its subjectAltName) in mqtt.url`;
  if (code === 'CERT_HAS_EXPIRED') return `the broker's TLS certificate has expired ("${text}"): renew it on the broker`;
  if (code === 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED')
    return `the broker requires a client certificate ("${text}"): set mqtt.cert and mqtt.key to this daemon's certificate and key files (PEM)`;
  if (code === 'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA' || code === 'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE') {
    return `the broker does not accept the client certificate in mqtt.cert ("${text}"): use one signed by the CA the broker trusts (its cafile), with its key in mqtt.key`;
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG') {
    return `the port in mqtt.url does not speak TLS ("${text}"): use mqtt:// there, or mqtts:// with the broker's TLS port (often 8883)`;
  }
  if (code === 'ECONNRESET' && /^(mqtt|ws):/i.test(url)) {
    return `the broker closed the connection at once ("${text}"): if that port speaks TLS (often 8883), use mqtts:// in mqtt.url (and mqtt.ca for its CA)`;
  }
  return undefined;
}

/** The one line for a connection error; `url` is mqtt.url (only its scheme is read). */
export function describeConnectionError(err: LibraryError, url: string): ConnectionProblem {
  const text = shortText(err);
  if (typeof err.code === 'number') {
    const refusal = REFUSALS[err.code];
    return { line: refusal ?? `the broker refused the connection (code ${err.code}, "${text}"); see the broker's log`, answered: true };
  }
  const code = err.code ?? '';
  const tls = tlsProblem(code, text, url);
  if (tls) return { line: tls, answered: true };
  if (UNREACHABLE.has(code))
    return { line: `broker unreachable (${code}): check the host and port in mqtt.url and that the broker runs`, answered: false };
  return { line: `MQTT connection error (${code === '' ? 'see the log' : code})`, answered: false };
}
