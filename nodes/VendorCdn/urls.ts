/**
 * The URLs of a cache refresh or prefetch: found in a text when asked, checked against the
 * separator they are joined with, and, when asked, against the account's CDN channels before
 * anything is sent (a URL outside every channel may be refused later as "failed").
 */
import type { IDataObject } from 'n8n-workflow';

import type { OperationContext } from '../shared/api/declarations';
import { LOCATORS } from '../shared/api/locators';
import { locatorRecords } from '../shared/api/resolve';
import { InputError } from '../shared/errors';

/** The http(s) addresses in a text, each once, without trailing punctuation. */
export function urlsInText(text: string): string[] {
	const found = text.match(/https?:\/\/[^\s,;<>"'`]+/gi) ?? [];
	return [...new Set(found.map((u) => u.replace(/[.)\]!?:]+$/, '')))];
}

/** Whether a channel (`www.example.com`, or `*.example.com` for its subdomains) serves a host name. */
export function channelServes(channel: string, host: string): boolean {
	const c = channel.trim().toLowerCase().replace(/\.$/, '');
	const h = host.trim().toLowerCase().replace(/\.$/, '');
	if (c.startsWith('*.')) return h.endsWith(c.slice(1)) && h.length > c.length - 1;
	return c === h;
}

export function hostOf(url: string): string | undefined {
	try {
		const u = new URL(url.trim());
		return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname : undefined;
	} catch {
		return undefined;
	}
}

/** The account's channels (every page), read once per run and shared by every item. */
export async function channelsOf(ctx: OperationContext): Promise<IDataObject[]> {
	return await locatorRecords(ctx.fn, LOCATORS.channel, {}, ctx.itemIndex);
}

export const channelNames = (channels: IDataObject[]) => {
	const names = channels.map((c) => String(c.name));
	return names.length > 15 ? `${names.slice(0, 15).join(', ')} and ${names.length - 15} more` : names.join(', ');
};

/** The URLs (with their number, from 1) whose host no channel serves. */
export function outside(urls: string[], channels: IDataObject[]): Array<{ n: number; url: string; host: string }> {
	const out: Array<{ n: number; url: string; host: string }> = [];
	urls.forEach((url, i) => {
		const host = hostOf(url);
		if (host !== undefined && !channels.some((c) => channelServes(String(c.name ?? ''), host))) out.push({ n: i + 1, url, host });
	});
	return out;
}

/**
 * Before a refresh or prefetch is sent, when the user asked for the check (Check URLs Against
 * Channels added and on): every URL's host must be served by a channel of the account (a wildcard
 * channel serves its subdomains); otherwise nothing is sent and the error names the URLs and the
 * channels. The vendor's documentation states no such rule, so nothing is checked unless asked,
 * and a channel list that cannot be read (a sub-account allowed only `API/cdn/refresh`) lets the
 * URLs go unchecked. A URL of another scheme than http(s) is left to the service (one without
 * a scheme was refused by joinUrls).
 */
export async function checkUrlsAgainstChannels(body: IDataObject, ctx: OperationContext): Promise<IDataObject> {
	const { checkChannels, ...rest } = body;
	if (checkChannels !== 1) return rest;
	const urls = (rest.urls as string[]) ?? [];
	let channels: IDataObject[];
	try {
		channels = await channelsOf(ctx);
	} catch {
		return rest;
	}
	const bad = outside(urls, channels);
	if (bad.length) {
		const which = bad.map((b) => `URL ${b.n} (${b.url})`).join(', ');
		throw new InputError(
			`${which} ${bad.length === 1 ? 'is' : 'are'} outside every CDN channel of the account, so the CDN cannot purge ${bad.length === 1 ? 'it' : 'them'}; channels: ${channels.length ? channelNames(channels) : 'none'}`,
			`Give URLs of your channels only (a channel *.example.com serves its subdomains), or add a channel for ${[...new Set(bad.map((b) => b.host))].join(', ')} with Channel > Create. Turn off "Check URLs Against Channels" to send them anyway.`,
		);
	}
	return rest;
}

/** The URLs of a refresh or prefetch: checked against the separator, then the channels; joined with the separator. */
export async function prepareUrls(body: IDataObject, ctx: OperationContext): Promise<IDataObject> {
	const { checkChannels, urlsInText: inText, ...rest } = body;
	if (inText === 1) {
		rest.urls = urlsInText(((rest.urls as string[]) ?? []).join('\n'));
		if (!(rest.urls as string[]).length) {
			throw new InputError('No URL found in the text of "URLs"', 'Give full addresses such as https://www.example.com/index.html, or turn off "Find URLs in Text".');
		}
	}
	const joined = joinUrls(rest);
	await checkUrlsAgainstChannels({ ...rest, checkChannels }, ctx);
	return joined;
}

/**
 * Joins the URLs with the separator, refusing a URL that contains it, and a URL without its
 * scheme (www.example.com/a.html): an address of a cache is a URL, and a URL starts with its
 * scheme (docs/vendor/readings.md#r3).
 */
export function joinUrls(body: IDataObject): IDataObject {
	if (body.partition === '') delete body.partition;
	const sep = typeof body.partition === 'string' ? body.partition : ',';
	const urls = (body.urls as string[]) ?? [];
	const bare = urls.findIndex((u) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(u.trim()));
	if (bare >= 0) {
		const url = urls[bare].trim().replace(/^\/+/, '');
		throw new InputError(
			`Invalid "URLs": URL ${bare + 1} (${urls[bare]}) has no https:// at the start`,
			`Write the full address with its scheme, for example https://${url}.`,
		);
	}
	const bad = urls.findIndex((u) => u.includes(sep));
	if (bad >= 0) {
		throw new InputError(
			`Invalid "URLs": URL ${bad + 1} contains the separator "${sep}" (${urls[bad]})`,
			'Set "Separator" in Additional Fields to a character that appears in none of the URLs, such as | or a space.',
		);
	}
	return { ...body, urls: urls.join(sep) };
}
