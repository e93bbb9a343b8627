/** Fields that Cache Refresh and Prefetch share: the URLs, their separator, and the two switches of how they are read. */
import type { FieldDecl } from '../../shared/api/declarations';
import { checked, list, required, str } from '../../shared/api/fields';

/** The URL list: one URL per line (commas stay inside a URL), joined with the separator when sent. */
export const urlsField = (description: string): FieldDecl =>
	required({
		...list('urls', 'URLs', `${description}; full addresses such as https://www.example.com/index.html`, { placeholder: 'e.g. https://www.example.com/index.html' }),
		oneEntryPerLine: true,
		send: 'array',
	});

export const separatorField = checked(
	str('partition', 'Separator', 'Character the URLs are joined with when sent (default a comma); no URL may contain it', { default: ',' }),
	{ kind: 'singleChar' },
);

/**
 * "Check URLs Against Channels" (Additional Fields): the vendor's documentation states no rule that
 * a URL must belong to a channel, so the check runs only when asked (the field added and on).
 */
export const checkChannelsField: FieldDecl = {
	wire: 'checkChannels',
	displayName: 'Check URLs Against Channels',
	kind: 'boolean',
	default: true,
	description:
		"Whether each URL's host is checked against the account's channels before anything is sent, and a URL no channel serves is refused (one channel listing per run). Not checked unless added here; when the channel list cannot be read (a sub-account allowed only to refresh), the URLs are sent unchecked.",
};

/** "Find URLs in Text" (Additional Fields): the URLs field holds a text such as a chat message. */
export const urlsInTextField: FieldDecl = {
	wire: 'urlsInText',
	displayName: 'Find URLs in Text',
	kind: 'boolean',
	default: false,
	description:
		'Whether "URLs" is a text such as a chat message: every http or https address in it is taken, each once (a full stop or bracket after an address is not part of it)',
};
