import type { IDataObject } from 'n8n-workflow';

import { recordsWithMessage } from '../../shared/api/output';
import type { FieldDecl, OperationDecl } from '../../shared/api/declarations';
import { choice, count, decimal, id, locator, locators, nameStr, required, secret, str, text, topLevel } from '../../shared/api/fields';
import { CODES, HOST_STATUS, MONITOR_PERIODS, PAY_TYPES, YES_NO } from '../../shared/api/codes';
import { code, computed, field, first, flag, number, time, type SimpleField, type SimplifySpec } from '../../shared/api/simplify';
import { InputError } from '../../shared/errors';
import { afterWaitUntilRunning, hostsInRequest, readStatusesBefore, waitUntilRunningExtras } from '../hostWait';
import { checkNewHost, findInText, hostLineCode, monitoringPoints } from '../hosts';

/** Simplified host records (instance/list has 25 fields). */
export const HOST_SIMPLE: SimplifySpec = {
	id: field('id'),
	instanceId: first('instance_id', 'instanceid'),
	name: field('name'),
	status: code('status', CODES.hostStatus),
	ips: field('ips'),
	innerIp: field('innerip'),
	dataCentre: first('node_zh', 'nodename'),
	dataCentreId: field('nodeid'),
	cpus: number('cpu.volume'),
	memory: field('mem.volume'),
	image: field('image.osname'),
	line: computed((r) => {
		const c = hostLineCode(r);
		if (c !== undefined && CODES.line[String(c)]) return CODES.line[String(c)];
		const network = r.network as IDataObject | undefined;
		return network && typeof network === 'object' ? (network.line as string | undefined) : undefined;
	}),
	lineCode: computed((r) => {
		const c = hostLineCode(r);
		return c === undefined ? undefined : String(c);
	}),
	// no unit is documented for either (only disk resizes and cloud disks are sized in G): the documents' words
	networkValue: number('networkvalue'),
	diskValue: number('diskvalue'),
	billing: code('paytype', CODES.billing),
	// the numeric IDs Join, Leave and Change Configuration take, and the security group's and network's own IDs
	firewall: field('firewall.id'),
	firewallId: field('firewall.firewall_id'),
	privateNetwork: field('net.id'),
	privateNetworkId: field('net.vxnet_id'),
	starred: flag('mark'),
	note: field('note'),
	suspendNote: field('suspend_note'),
	created: time('createtime'),
};

/**
 * What a host action (create, reinstall, start, stop, reboot, rename, star) gives back, simplified
 * like a listed host: the service answers with the host's record or part of it (instance/update
 * names the hosts it acted on, comma-joined, with a status), and Wait Until Running with the
 * listed host records and what the wait saw (`wait`).
 */
export const HOST_ACTION_SIMPLE: SimplifySpec = { ...HOST_SIMPLE, wait: field('wait') };

/** A field of a host as listed: read only from the records of a wait (which carry `wait`), never from an answer. */
const ofListedHost = (f: SimpleField): SimpleField => computed((r, ctx) => (r.wait === undefined ? undefined : f.read(r, ctx)));

/**
 * Backup > Restore and Snapshot > Roll Back, simplified like the other host actions: with Wait
 * Until Running the output is the host as listed (HOST_ACTION_SIMPLE). Without it, the service's
 * answer names the host as `instance_id`, with `backup_id` or `snapshot_id`, Roll Back also a
 * `name` whose owner (the host or the snapshot) the documents do not say, and maybe an `id` that
 * may be the backup's or the snapshot's (docs/vendor/readings.md#r67). So `id` is the host's only
 * in a listed host (an `id` of the answer is left out), and `name` is given as it came.
 */
export function restoredHostSimple(copy: 'backup' | 'snapshot'): SimplifySpec {
	return {
		...HOST_ACTION_SIMPLE,
		id: ofListedHost(HOST_SIMPLE.id),
		...(copy === 'backup' ? { backupId: field('backup_id') } : { snapshotId: field('snapshot_id') }),
	};
}

/**
 * Host > Get Console, simplified: which host, and where and with what its remote console (VNC) is
 * opened. The service answers `host`, `port`, `ticket` and `vendortoken`
 * (docs/vendor/hosts-network-dns.md); `host` is the console's server, not the cloud host.
 */
export const CONSOLE_SIMPLE: SimplifySpec = {
	hostId: computed((_r, ctx) => (ctx.body.id === undefined ? undefined : String(ctx.body.id))),
	consoleServer: field('host'),
	consolePort: number('port'),
	consoleAddress: computed((r) => (r.host !== undefined && r.host !== '' && r.port !== undefined && r.port !== '' ? `${String(r.host)}:${String(r.port)}` : undefined)),
	ticket: field('ticket'),
	token: field('vendortoken'),
};

const host = (description: string, extra: Partial<FieldDecl> = {}) => locator('id', 'host', 'Host', description, extra);
const hosts = (description: string) => ({ ...locators('id', 'host', 'Hosts', description), send: 'comma' as const });

/** The service sets the password rules (not stated by the documents: docs/vendor/readings.md#r3); its own error is shown. */
const password = (wire: string, description: string, extra: Partial<FieldDecl> = {}) => secret(wire, 'Administrator Password', description, extra);

export const hostOperations: OperationDecl[] = [
	{
		endpoint: 'instance/list',
		path: 'instance/list',
		resource: 'host',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many hosts',
		description: 'List cloud hosts with status, IP addresses and packages, optionally by data center, image, status or star',
		list: { paged: true },
		readOnly: true,
		simplify: HOST_SIMPLE,
		fields: [
			id('id', 'Host ID', 'Only the host with this numeric ID'),
			{ ...locator('nodeid', 'dataCentre', 'Data Center', 'Only hosts in this data center.'), required: false },
			{ ...locator('imageid', 'image', 'Image', 'Only hosts installed from this image.'), required: false },
			choice('status', 'Status', HOST_STATUS, 'Only hosts in this state', { default: 0 }),
			choice('mark', 'Starred', YES_NO, 'Only starred (Yes) or unstarred (No) hosts', { default: 1 }),
		],
	},
	{
		endpoint: 'instance/create',
		path: 'instance/create',
		resource: 'host',
		operation: 'create',
		name: 'Create',
		action: 'Create a host',
		description: 'Create one or more cloud hosts in a data center from a CPU package, memory package, image and line',
		simplify: HOST_ACTION_SIMPLE,
		fields: [
			required(nameStr('name', 'Name', 'Name of the host', { placeholder: 'e.g. web-1' })),
			locator('nodeid', 'dataCentre', 'Data Center', 'Where the host runs; the lines offered depend on it'),
			locator('cpuid', 'cpuPackage', 'CPU Package', 'Number of CPU cores'),
			locator('memid', 'memPackage', 'Memory Package', 'Memory size'),
			locator('imageid', 'image', 'Image', 'Operating system to install'),
			// version 1 always sent 40 GB, a size the vendor's documentation never names; from 1.1 the size
			// is sent only when the user sets it (schema/README.md, "Node versions")
			topLevel(count('diskvalue', 'System Disk Size', 'a size', "Size of the system disk, in the unit the service uses (the vendor's documentation names none for it)", { default: 40, until: 1 })),
			count('diskvalue', 'System Disk Size', 'a size', "Size of the system disk, in the unit the service uses (the vendor's documentation names none for it); left out, the service chooses it", { default: 40, since: 1.1 }),
			locator('networkid', 'line', 'Line', 'Network line of the chosen data center, sent as its line code (1 Inner Network, 2 Telecom, 3 Unicom, 4 Mobile, 5 BGP, 6 Dual Line); Inner Network has no public bandwidth'),
			topLevel(count('networkvalue', 'Bandwidth', 'a bandwidth', "Public bandwidth, in the unit the service uses (the vendor's documentation names none); required for a public line, every line except Inner Network", { default: 0 })),
			required(choice('type', 'Billing Type', PAY_TYPES, 'How the host is paid for', { default: 1 })),
			topLevel(decimal('couponprice', 'Coupon Amount', 'Part of the price paid from the coupon balance (monthly and yearly billing only)', { show: { type: [2, 3] } })),
			required(password('pass', 'Password of the administrator account; the service sets the rules (often 8-30 characters with upper- and lower-case letters and digits)')),
			topLevel(count('num', 'Quantity', 'a quantity of hosts', 'How many identical hosts to create; the service sets the maximum (often 10)', { default: 1 })),
			str('note', 'Note', 'Remark shown with the host'),
		],
		prepare: checkNewHost,
		extras: waitUntilRunningExtras('every created host is'),
		after: afterWaitUntilRunning(),
	},
	{
		endpoint: 'instance/restore',
		path: 'instance/restore',
		resource: 'host',
		operation: 'reinstall',
		name: 'Reinstall',
		action: 'Reinstall a host',
		description: "Reinstall a host's operating system, optionally with a new administrator password",
		simplify: HOST_ACTION_SIMPLE,
		notice: "Reinstalling erases the host's system disk; everything stored on it is lost",
		fields: [
			host('The host to reinstall'),
			required({ wire: 'is_change_pass', displayName: 'Change Password', kind: 'boolean', default: false, description: 'Whether to set a new administrator password' }),
			required(password('password', 'New administrator password; the service sets the rules (often 8-30 characters with upper- and lower-case letters and digits)', { show: { isChangePass: [true] } })),
		],
		extras: waitUntilRunningExtras('the host is'),
		beforeSend: readStatusesBefore(hostsInRequest),
		after: afterWaitUntilRunning(hostsInRequest),
	},
	{
		endpoint: 'instance/delete',
		path: 'instance/delete',
		resource: 'host',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete hosts',
		description: 'Move one or more hosts to the recycle bin',
		notice: "Deleted hosts go to the recycle bin; the service's answer says how long it keeps them there (the vendor's documentation: 2 hours)",
		deletes: true,
		simplify: { ...HOST_SIMPLE, message: field('message') },
		fields: [hosts('The hosts to delete')],
		output: recordsWithMessage,
	},
	{
		endpoint: 'instance/upgrade',
		path: 'instance/upgrade',
		resource: 'host',
		operation: 'updateConfiguration',
		optionalIn: 'updateFields',
		name: 'Change Configuration',
		action: 'Change the configuration of a host',
		description: "Change a host's CPU, memory, bandwidth or billing type, or resize its disks",
		simplify: HOST_ACTION_SIMPLE,
		fields: [
			host('The host to change', { param: 'iid' }),
			{
				wire: 'diskresize',
				displayName: 'Disk Resize',
				kind: 'rows',
				topLevel: true,
				description: 'Disks of the host to resize, each with its new size in GB',
				rows: {
					itemName: 'Disk',
					fields: [
						required(locator('disk', 'hostDiskVolume', 'Disk', 'A disk of the chosen host.')),
						required(count('size', 'Size (GB)', 'a size', 'New size in GB', { default: 50 })),
					],
					serialize: (rows: IDataObject[]) => rows.map((r) => `${String(r.disk)},${String(r.size)}`).join(';'),
				},
			},
			choice('paytype', 'Billing Type', PAY_TYPES, 'New billing type', { default: 1 }),
			{ ...locator('cpuid', 'cpuPackage', 'CPU Package', 'New number of CPU cores.'), required: false },
			{ ...locator('memid', 'memPackage', 'Memory Package', 'New memory size.'), required: false },
			count('networkvalue', 'Bandwidth', 'a bandwidth', "New public bandwidth, in the unit the service uses (the vendor's documentation names none)", { default: 1 }),
		],
		prepare: (body) => {
			if (!['paytype', 'cpuid', 'memid', 'networkvalue', 'diskresize'].some((k) => body[k] !== undefined && body[k] !== '')) {
				throw new InputError('Nothing to change', 'Add a disk under "Disk Resize" or a field under "Update Fields".');
			}
			return body;
		},
	},
	{
		endpoint: 'instance/updateBasicinfo',
		path: 'instance/updateBasicinfo',
		resource: 'host',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update the name or note of a host',
		description: 'Rename a host or change its note (not its configuration or power state)',
		simplify: HOST_ACTION_SIMPLE,
		fields: [
			host('The host to rename or annotate'),
			nameStr('name', 'Name', 'New name of the host'),
			str('note', 'Note', 'New remark; leave empty to clear it'),
		],
		prepare: (body) => {
			if (body.name === undefined && body.note === undefined) {
				throw new InputError('Nothing to change', 'Add Name or Note under "Update Fields".');
			}
			return body;
		},
	},
	{
		endpoint: 'instance/update',
		path: 'instance/update',
		resource: 'host',
		operation: 'start',
		name: 'Start',
		action: 'Start hosts',
		description: 'Power on one or more hosts',
		simplify: HOST_ACTION_SIMPLE,
		constant: { op: 'start' },
		fields: [hosts('The hosts to power on')],
		extras: waitUntilRunningExtras('every host is'),
		beforeSend: readStatusesBefore(hostsInRequest),
		after: afterWaitUntilRunning(hostsInRequest),
	},
	{
		endpoint: 'instance/update',
		path: 'instance/update',
		resource: 'host',
		operation: 'stop',
		name: 'Stop',
		action: 'Stop hosts',
		description: 'Power off one or more hosts',
		simplify: HOST_ACTION_SIMPLE,
		notice: 'The hosts are powered off; unsaved work on them is lost',
		constant: { op: 'stop' },
		fields: [hosts('The hosts to power off')],
	},
	{
		endpoint: 'instance/update',
		path: 'instance/update',
		resource: 'host',
		operation: 'reboot',
		name: 'Reboot',
		action: 'Restart hosts with a reboot',
		description: 'Restart one or more hosts',
		simplify: HOST_ACTION_SIMPLE,
		notice: 'The hosts are restarted; work running on them is interrupted',
		constant: { op: 'reset' },
		fields: [hosts('The hosts to restart')],
		extras: waitUntilRunningExtras('every host is'),
		beforeSend: readStatusesBefore(hostsInRequest),
		after: afterWaitUntilRunning(hostsInRequest),
	},
	{
		endpoint: 'instance/mark',
		path: 'instance/mark',
		resource: 'host',
		operation: 'star',
		name: 'Star or Unstar',
		action: 'Star or unstar a host',
		description: 'Set or remove the star that marks a host as a favorite',
		simplify: HOST_ACTION_SIMPLE,
		fields: [
			host('The host to star or unstar'),
			required({ wire: 'mark', displayName: 'Starred', kind: 'boolean', default: false, description: 'Whether the host gets a star (on) or loses it (off, the default: instance/mark defaults to 0)' }),
		],
	},
	{
		endpoint: 'instance/vncproxy',
		path: 'instance/vncproxy',
		resource: 'host',
		operation: 'getConsole',
		name: 'Get Console',
		action: 'Get console access to a host',
		description: 'Get the address, port and tickets for the remote console (VNC) of a host',
		simplify: CONSOLE_SIMPLE,
		fields: [host('The host whose console is opened')],
	},
	{
		endpoint: 'instance/sendkey',
		path: 'instance/sendkey',
		resource: 'host',
		operation: 'sendKeys',
		name: 'Send Keys',
		action: 'Send keys to a host',
		description: "Send a key combination such as ctrl-alt-delete to a host's console",
		fields: [
			host('The host that receives the keys'),
			required(str('key', 'Key Combination', 'Keys pressed together, usually joined by "-"', { placeholder: 'e.g. ctrl-alt-delete' })),
		],
	},
	{
		endpoint: 'instance/monitor',
		path: 'instance/monitor',
		resource: 'host',
		operation: 'getMonitoring',
		name: 'Get Monitoring',
		action: 'Get monitoring data of a host',
		description: 'Get the CPU usage of a host over a period: one item per point with metric, timestamp (ms), ISO time and value',
		readOnly: true,
		fields: [
			host('The host whose monitoring data is read'),
			required(choice('type', 'Period', MONITOR_PERIODS, 'Time span the points cover', { default: 'hour' })),
			{ wire: 'resultType', param: 'formatted', displayName: 'Formatted Values', kind: 'boolean', description: 'Whether the service formats (rounds) the values' },
		],
		output: monitoringPoints,
	},
	{
		// not one endpoint call: reads instance/list (once per run) and looks for the hosts named
		endpoint: 'find in text: instance/list, read once per run',
		path: 'instance/list',
		resource: 'host',
		operation: 'findInText',
		name: 'Find in Text',
		action: 'Find the host named in a text',
		description:
			'Find the host a text names by its name, instance ID or IP address, e.g. "please restart web-1" from a chat; says why when it names none or several',
		readOnly: true,
		fields: [
			required({
				...text('text', 'Text', 'Text that names one host by its name, instance ID or IP address, such as a chat message', { placeholder: 'e.g. please restart web-1' }),
				topLevel: true,
			}),
		],
		simplify: { found: field('found'), message: field('message'), ...HOST_SIMPLE, named: field('named'), hosts: field('hosts') },
		run: findInText,
	},
];
