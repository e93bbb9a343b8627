/**
 * Errors whose message is the node's own. NodeApiError replaces a message that contains a
 * network code (ECONNRESET, ETIMEDOUT, ...) or goes with an HTTP status by n8n's generic text
 * ("The connection to the server was closed unexpectedly ... You can retry the request
 * immediately"), which drops the endpoint and may tell the user to repeat a change that was
 * already made. The node's message says what happened and what is safe to do, so it is kept.
 * The raw request error is never attached: it carries the request, and the request the token.
 */
import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

export interface ApiErrorInfo {
	message: string;
	description?: string;
	/** HTTP status of the answer, when there was one (never a service code). */
	httpStatus?: number;
	itemIndex?: number;
	/** Extra facts kept on error.context (service code, endpoint, attempts). */
	context?: Record<string, string | number | boolean | undefined>;
}

/**
 * The texts say "the Vendor API credential" (the type, as n8n's credential list shows it); where the
 * node knows the user's own credential, they name it as the user named it ("Vendor account").
 */
export function namingCredential(node: INode, text: string): string;
export function namingCredential(node: INode, text: string | undefined): string | undefined;
export function namingCredential(node: INode, text: string | undefined): string | undefined {
	const name = node.credentials?.vendorApi?.name;
	if (!text || typeof name !== 'string' || !name.trim()) return text;
	return text.replace(/the Vendor API credential/g, `the credential "${name}" (type Vendor API)`);
}

export function apiError(node: INode, nodeInfo: ApiErrorInfo): NodeApiError {
	const info = { ...nodeInfo, message: namingCredential(node, nodeInfo.message), description: namingCredential(node, nodeInfo.description) };
	const response: JsonObject = { message: info.message };
	const error = new NodeApiError(node, response, {
		message: info.message,
		description: info.description,
		httpCode: info.httpStatus !== undefined ? String(info.httpStatus) : undefined,
		itemIndex: info.itemIndex,
	});
	error.message = info.message;
	error.description = info.description ?? null;
	if (info.httpStatus === undefined) error.httpCode = null;
	for (const [k, v] of Object.entries(info.context ?? {})) if (v !== undefined) error.context[k] = v;
	return error;
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A management error as its user reads it: the first line names what the user asked for (`what`:
 * the operation's action in quotes, "the poll" of a trigger) instead of the service's path
 * (`profile/invoiceApply`), calls the service's parameters by the fields the user filled
 * (`labels`: wire name -> field label, where the service's message starts with one or names one
 * followed by a colon or in quotes: "price must be greater than 0" -> "Amount" must be greater than
 * 0), and leaves the service's code out; the path and the code go to the description, where
 * someone helping the user looks for them. Errors without an endpoint are returned unchanged.
 */
export function inUserWords<E>(error: E, what: string, labels: Record<string, string> = {}): E {
	if (!(error instanceof NodeApiError) && !(error instanceof NodeOperationError)) return error;
	const endpoint = error.context?.endpoint;
	if (typeof endpoint !== 'string' || !endpoint || error.context.inUserWords) return error;
	const code = error.context.serviceCode;
	// the service's code in brackets: "(code -1)", "(profile/x, code 0: check the values sent)"
	let message = error.message.replace(/\s*\((?:[^()]*?,\s*)?code -?\d+(?::[^()]*)?\)/gi, '');
	message = message.split(`API/${endpoint}`).join(what).split(endpoint).join(what);
	for (const [wire, label] of Object.entries(labels)) {
		const w = escaped(wire);
		message = message
			.replace(new RegExp(`^${w}(?=[\\s:])`), `"${label}"`)
			.replace(new RegExp(`(^|[\\s(])${w}:`, 'g'), `$1"${label}":`)
			.replace(new RegExp(`(["'\`])${w}\\1`, 'g'), `"${label}"`);
	}
	const where = `Service request: API/${endpoint}${code !== undefined ? `, service code ${String(code)}` : ''}.`;
	const description = error.description ?? '';
	error.message = message;
	// the details name the request and the service's code once: kept when they already do
	const named = description.includes(endpoint) && (code === undefined || description.includes(`code ${String(code)}`));
	error.description = named ? description : `${description}${description ? ' ' : ''}${where}`;
	error.context.inUserWords = true;
	return error;
}

/** "30 s", "1.5 s", "2 min 5 s". */
export function seconds(ms: number): string {
	const s = ms / 1000;
	if (s < 60) return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
	const m = Math.floor(s / 60);
	const rest = Math.round(s - m * 60);
	return rest ? `${m} min ${rest} s` : `${m} min`;
}

/**
 * Input that cannot be sent, found before any request: the message names the field and what is
 * wrong, the description how to fix it. The execute loop turns it into a NodeOperationError
 * that names the item.
 */
export class InputError extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
	}
}
