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
const TOKEN_WORDS = [
	/\b(?:access[ _-]?)?token\b[^.;,]{0,40}\b(?:invalid|expired?|revoked|missing|required|empty|unknown|wrong|illegal|not (?:valid|found|exist|recogni[sz]ed)|time-?out|timed[ -]?out|time[ -]out)\b/i,
	/\b(?:invalid|expired|revoked|missing|unknown|illegal|bad|wrong|no|timed[ -]?out)\b[^.;,]{0,20}\b(?:access[ _-]?)?token\b/i,
	/\b(?:please )?(?:re-?)?(?:log ?in|sign ?in|login|authori[sz]e|authenticate) again\b|\bre-?(?:login|authori[sz]e|authenticate)\b/i,
	/\b(?:not|no longer) (?:logged|signed) in\b|\b(?:session|login|log-in) (?:has )?(?:expired|time-?out|timed[ -]?out|time[ -]out)\b/i,
	/(?:token|令牌|凭证|凭据|授权|登录态|登录状态|登陆状态|会话)[^，。,;；]{0,8}(?:无效|失效|过期|超时|不存在|错误|非法|为空|不能为空|缺失)/i,
	/(?:无效|非法|错误|缺少)的?(?:token|令牌|凭证|凭据)/i,
	/请?重新(?:登录|登陆|授权|认证|获取(?:token|令牌))|未登录|未登陆|登录(?:已)?(?:超时|过期|失效)|登陆(?:已)?(?:超时|过期|失效)|身份(?:验证|认证)(?:失败|过期|失效)/i,
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
