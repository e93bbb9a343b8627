/** Codes of DNS: domains, records, monitors, strategies and templates. */
import type { OptionDecl } from '../declarations';

/** DNS domain `status` (1 enabled, 2 paused, 3 abnormal). */
export const DOMAIN_STATUS: OptionDecl[] = [
	{ name: 'Enabled', value: 1 },
	{ name: 'Paused', value: 2 },
	{ name: 'Abnormal', value: 3 },
];

/** `0 paused / 1 enabled` toggles (records, monitors, monitor records, strategies). */
export const ENABLED_PAUSED: OptionDecl[] = [
	{ name: 'Enabled', value: 1 },
	{ name: 'Paused', value: 0 },
];

/** `0 closed / 1 enabled` toggles (strategy templates and their records). */
export const ENABLED_CLOSED: OptionDecl[] = [
	{ name: 'Enabled', value: 1 },
	{ name: 'Closed', value: 0 },
];

/** Resolution strategy `sty`. */
export const STRATEGIES: OptionDecl[] = [
	{ name: 'Zone Only', value: 'auto', description: 'Answer by zone only' },
	{ name: 'Carrier and Region', value: 'isp_region', description: 'Answer by carrier plus region' },
	{ name: 'Carrier and Province', value: 'isp_province', description: 'Answer by carrier plus province' },
	{ name: 'Carrier and City', value: 'isp_city', description: 'Answer by carrier plus city' },
	{ name: 'Off', value: 'null', description: 'No strategy' },
];

/**
 * DNS record lines. The documentation names no values for `recordline`; the dropdown offers the
 * line that answers everyone and the carriers named for host lines, and any other line the
 * service knows is entered as an expression (a list given by example stays open).
 */
export const DNS_LINES: OptionDecl[] = [
	{ name: 'Default', value: 'default', description: 'Answers everyone' },
	{ name: 'Telecom', value: 'telecom' },
	{ name: 'Unicom', value: 'unicom' },
	{ name: 'Mobile', value: 'mobile' },
];

/** Record types the record operations offer ("for example A, AAAA, CNAME": the list is open). */
export const RECORD_TYPES: OptionDecl[] = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'].map((t) => ({ name: t, value: t }));
