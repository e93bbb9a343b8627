/**
 * How a refused token is recognised (docs/vendor/readings.md#r30, #r44): the documents give no
 * failure codes, so a refusal is about the token when it has code -1, comes with HTTP 401, or
 * its message says so in English or Chinese; any other refusal is the service's answer.
 */
import type { Envelope } from './envelope';

/**
 * Messages that say the token (or the log-in it came from) is missing, invalid, expired, timed
 * out or revoked: English, and Chinese as the vendor's display fields (`*_zh`) are written. A
 * message about a password, a permission, a request that timed out or anything else does not
 * match.
 */
// Chinese written as \u escapes: the package's files hold Latin script only (n8n's verification guidelines)
const TOKEN_WORDS = [
	/\b(?:access[ _-]?)?token\b[^.;,]{0,40}\b(?:invalid|expired?|revoked|missing|required|empty|unknown|wrong|illegal|not (?:valid|found|exist|recogni[sz]ed)|time-?out|timed[ -]?out|time[ -]out)\b/i,
	/\b(?:invalid|expired|revoked|missing|unknown|illegal|bad|wrong|no|timed[ -]?out)\b[^.;,]{0,20}\b(?:access[ _-]?)?token\b/i,
	/\b(?:please )?(?:re-?)?(?:log ?in|sign ?in|login|authori[sz]e|authenticate) again\b|\bre-?(?:login|authori[sz]e|authenticate)\b/i,
	/\b(?:not|no longer) (?:logged|signed) in\b|\b(?:session|login|log-in) (?:has )?(?:expired|time-?out|timed[ -]?out|time[ -]out)\b/i,
	/(?:token|\u4ee4\u724c|\u51ed\u8bc1|\u51ed\u636e|\u6388\u6743|\u767b\u5f55\u6001|\u767b\u5f55\u72b6\u6001|\u767b\u9646\u72b6\u6001|\u4f1a\u8bdd)[^\uff0c\u3002,;\uff1b]{0,8}(?:\u65e0\u6548|\u5931\u6548|\u8fc7\u671f|\u8d85\u65f6|\u4e0d\u5b58\u5728|\u9519\u8bef|\u975e\u6cd5|\u4e3a\u7a7a|\u4e0d\u80fd\u4e3a\u7a7a|\u7f3a\u5931)/i,
	/(?:\u65e0\u6548|\u975e\u6cd5|\u9519\u8bef|\u7f3a\u5c11)\u7684?(?:token|\u4ee4\u724c|\u51ed\u8bc1|\u51ed\u636e)/i,
	/\u8bf7?\u91cd\u65b0(?:\u767b\u5f55|\u767b\u9646|\u6388\u6743|\u8ba4\u8bc1|\u83b7\u53d6(?:token|\u4ee4\u724c))|\u672a\u767b\u5f55|\u672a\u767b\u9646|\u767b\u5f55(?:\u5df2)?(?:\u8d85\u65f6|\u8fc7\u671f|\u5931\u6548)|\u767b\u9646(?:\u5df2)?(?:\u8d85\u65f6|\u8fc7\u671f|\u5931\u6548)|\u8eab\u4efd(?:\u9a8c\u8bc1|\u8ba4\u8bc1)(?:\u5931\u8d25|\u8fc7\u671f|\u5931\u6548)/i,
];

/** Whether a message says the token was refused. */
export function saysTokenRefused(message: string): boolean {
	return TOKEN_WORDS.some((re) => re.test(message));
}

/**
 * Whether an answer refuses the token: HTTP 401, or a failure envelope with code -1 (the
 * project's reading, docs/vendor/readings.md#r30) or a message that says so, whatever its code
 * (#r44).
 */
export function tokenRefused(status: number, envelope: Envelope | undefined): boolean {
	if (status === 401) return true;
	if (!envelope) return false;
	const code = Number(envelope.code);
	if (code === 1) return false;
	return code === -1 || saysTokenRefused(String(envelope.message ?? ''));
}
