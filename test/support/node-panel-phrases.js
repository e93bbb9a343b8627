'use strict';
/**
 * Everyday words a person types into n8n's node panel, and the Vendor entry each must find
 * (issues 28 and 36). Typed into the real editor by test/real-n8n/editor.test.js and searched
 * with n8n's own search function by test/descriptions/node-panel-search.test.js.
 *
 * How n8n 2.40.7's panel matches (read in its editor bundle, n8n-editor-ui 2.40.3, and in
 * @n8n/utils 1.48.0 `search/sublime-search`): a query of several words loses its last word when
 * that word begins "trigger" ("s3 trig" searches "s3"); the rest, lower-cased, must be a
 * subsequence (the letters in order, gaps allowed) of ONE string of the entry: its display name
 * (score x 1.3) or one of its codex aliases (x 1); the best string scores the entry, and runs of
 * letters, word starts and a match near the string's start score higher, letters left over
 * lower. A trigger merged into its service's entry (Vendor Cloud Host Trigger under Vendor Cloud
 * Host) is searched by that entry's codex: nodes/<Node>/<Node>.node.json `alias`.
 */
const PHRASES = [
	['backup finished', 'Vendor Cloud Host'], // its trigger's "Backup Finished" event: "When a Cloud Host backup finishes"
	['cloud host backup', 'Vendor Cloud Host'],
	['low balance', 'Vendor Account & Billing'],
	['balance below', 'Vendor Account & Billing'],
	['top up', 'Vendor Account & Billing'],
	['monthly bill', 'Vendor Account & Billing'],
	['invoice', 'Vendor Account & Billing'],
	['host status', 'Vendor Cloud Host'],
	['server down', 'Vendor Cloud Host'],
	['restart server', 'Vendor Cloud Host'],
	['reboot server', 'Vendor Cloud Host'],
	['new server', 'Vendor Cloud Host'],
	['stop server', 'Vendor Cloud Host'],
	['virtual machine', 'Vendor Cloud Host'],
	['purge cache', 'Vendor CDN'],
	['clear cache', 'Vendor CDN'],
	['refresh cache', 'Vendor CDN'],
	['preload cache', 'Vendor CDN'],
	['new file', 'Vendor Object Storage'],
	['file uploaded', 'Vendor Object Storage'],
	['upload file', 'Vendor Object Storage'],
	['add dns record', 'Vendor DNS'],
	['domain name', 'Vendor DNS'],
	['firewall rule', 'Vendor Disk, Network & Firewall'],
	['open port', 'Vendor Disk, Network & Firewall'],
	['attach disk', 'Vendor Disk, Network & Firewall'],
	// issue 36: what a newcomer typed (8 of the first 10 found nothing), and the variations the issue names
	['check balance', 'Vendor Account & Billing'],
	['purge cdn', 'Vendor CDN'],
	['restart my server', 'Vendor Cloud Host'],
	['list files', 'Vendor Object Storage'],
	['upload to bucket', 'Vendor Object Storage'],
	['when a host goes down', 'Vendor Cloud Host'],
	['delete old files', 'Vendor Object Storage'],
	['copy file', 'Vendor Object Storage'],
	['dns record', 'Vendor DNS'], // and 'invoice', above
	['host down', 'Vendor Cloud Host'],
	['delete files', 'Vendor Object Storage'],
	['list objects', 'Vendor Object Storage'],
	// issue 36: ten more in the same spirit, written down before any alias was changed for them
	['account balance', 'Vendor Account & Billing'],
	['when balance is low', 'Vendor Account & Billing'],
	['clear cdn cache', 'Vendor CDN'],
	['reboot vm', 'Vendor Cloud Host'],
	['server backup', 'Vendor Cloud Host'],
	['download file from bucket', 'Vendor Object Storage'],
	['move file', 'Vendor Object Storage'],
	['new file in folder', 'Vendor Object Storage'],
	['change dns record', 'Vendor DNS'],
	['block ip address', 'Vendor Disk, Network & Firewall'],
];

module.exports = { PHRASES };
