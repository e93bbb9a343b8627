import type { FieldDecl, OperationDecl } from '../../shared/api/declarations';
import { checked, choice, count, id, int, locator, locators, nameStr, required, str } from '../../shared/api/fields';
import { CODES, ENABLED_PAUSED } from '../../shared/api/codes';
import { code, field, first, flag, number, time, type SimplifySpec } from '../../shared/api/simplify';
import { domain, monitor, newStatus } from './common';
import { InputError } from '../../shared/errors';

const YES_NO_FLAG = (wire: string, displayName: string, description: string): FieldDecl => ({ wire, displayName, kind: 'boolean', description, default: false });

/** Fields of monitorAdd besides did; monitorUpdate takes the same ones. */
const monitorFields = (forUpdate: boolean): FieldDecl[] => [
	...(forUpdate ? [nameStr('subdomain', 'Host Record', 'Host record to watch (@ for the domain itself)')] : []),
	count('retry', 'Retries', 'a number of retries', 'Failed checks before the host is treated as down (default 10); the plan may limit it', { default: 10 }),
	count('interval', 'Check Interval (Minutes)', 'a number of minutes', 'Minutes between two checks (default 10); the plan may limit it', { default: 10 }),
	str('host', 'Check Host', 'Host name sent in the check request; defaults to the watched name', { placeholder: 'e.g. www.example.com' }),
	str('path', 'Check Path', 'Path requested by the check, usually starting with /', { placeholder: 'e.g. /health' }),
	checked(int('port', 'Check Port', 'Port the check connects to', { default: 80 }), { kind: 'port' }),
	YES_NO_FLAG('switch', 'Switch on Failure', 'Whether to stop answering a failed address until it is up again'),
	// notify: a string (mail), a notification method as the plans list them in monitor_notice
	// (docs/vendor/readings.md#r62)
	{
		...str(
			'notify',
			'Notification Method',
			"How failures are notified: a method of the domain's plan (its monitor_notice), such as mail. Addresses go in Other E-Mails, phone numbers in Other Phones",
		),
		kind: 'options',
		optionsFrom: 'notifyMethod',
	},
	YES_NO_FLAG('less', 'Notify Once per Hour', 'Whether to send at most one notification per hour'),
	YES_NO_FLAG('enable_delay', 'Delay Notifications', 'Whether to wait before notifying (see Delay)'),
	count('delay', 'Delay (Minutes)', 'a number of minutes', 'Minutes without notification after a failure'),
	checked(str('other_email', 'Other E-Mails', 'Addresses to notify, comma-separated', { placeholder: 'e.g. a@example.com,b@example.com' }), { kind: 'emailList' }),
	str('other_phone', 'Other Phones', 'Phone numbers to notify, comma-separated'),
	choice('status', 'Status', ENABLED_PAUSED, 'Whether the monitor runs (default enabled)', { default: 1 }),
];

const MONITOR_SIMPLE: SimplifySpec = {
	id: field('id'),
	domain: field('domain_name'),
	domainId: first('domain_id', 'did'),
	hostRecord: field('subdomain'),
	status: code('status', CODES.enabledPaused),
	checkHost: field('host'),
	path: field('path'),
	port: number('port'),
	protocol: field('protocol'),
	retries: number('retry'),
	intervalMinutes: number('check_interval'),
	switchOnFailure: flag('switch'),
	notificationMethod: field('notify'),
	notifyOncePerHour: flag('less'),
	delayNotifications: flag('enable_delay'),
	delayMinutes: number('delay'),
	otherEmails: field('other_email'),
	otherPhones: field('other_phone'),
	recordNum: number('recordnum'),
	created: time('createtime'),
};

export const monitorOperations: OperationDecl[] = [
	{
		endpoint: 'dns/monitorList',
		path: 'dns/monitorList',
		resource: 'monitor',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many downtime monitors',
		description: 'List the downtime monitors that check the addresses of DNS records, optionally of one domain',
		list: { paged: true },
		readOnly: true,
		simplify: MONITOR_SIMPLE,
		fields: [id('id', 'Monitor ID', 'Only the monitor with this ID'), { ...domain('did', 'Only monitors of this domain'), required: false }],
	},
	{
		endpoint: 'dns/monitorAdd',
		path: 'dns/monitorAdd',
		resource: 'monitor',
		operation: 'add',
		name: 'Add',
		action: 'Add a downtime monitor',
		description: 'Watch a host record and notify (or switch) when an address goes down',
		simplify: MONITOR_SIMPLE,
		fields: [
			domain('did', 'The domain of the watched records'),
			required(nameStr('subdomain', 'Host Record', 'Host record to watch (@ for the domain itself)', { default: '@' })),
			...monitorFields(false),
		],
	},
	{
		endpoint: 'dns/monitorUpdate',
		path: 'dns/monitorUpdate',
		resource: 'monitor',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update a downtime monitor',
		description: 'Change what a downtime monitor checks, how often, and whom it notifies',
		simplify: MONITOR_SIMPLE,
		fields: [monitor('monitor_id', 'The monitor to change'), ...monitorFields(true)],
	},
	{
		endpoint: 'dns/monitorStatus',
		path: 'dns/monitorStatus',
		resource: 'monitor',
		operation: 'setStatus',
		name: 'Set Status',
		action: 'Enable or pause a downtime monitor',
		description: 'Enable or pause a downtime monitor, together with some or all of its monitor records',
		fields: [
			monitor('monitor_id', 'The monitor to enable or pause'),
			{
				...locators('record_id', 'monitorRecord', 'Monitor Records', 'Records switched with the monitor; empty sends none'),
				param: 'monitorRecordIds',
				send: 'comma',
				required: false,
				topLevel: true,
			},
			newStatus(ENABLED_PAUSED, 'Enabled runs the checks; Paused stops them'),
		],
		prepare: (body) => {
			if (body.record_id !== undefined && !/^\d+(,\d+)*$/.test(String(body.record_id))) {
				throw new InputError(`The "Monitor Records" field must hold numeric IDs, not "${String(body.record_id)}"`, 'Choose from the list, or give IDs separated by commas.');
			}
			return body;
		},
	},
	{
		endpoint: 'dns/monitorDelete',
		path: 'dns/monitorDelete',
		resource: 'monitor',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a downtime monitor',
		description: 'Delete a downtime monitor',
		notice: 'The addresses are no longer checked and failures are no longer notified',
		deletes: true,
		fields: [monitor('monitor_id', 'The monitor to delete')],
	},
];

export const monitorRecordOperations: OperationDecl[] = [
	{
		endpoint: 'dns/monitorRecordList',
		path: 'dns/monitorRecordList',
		resource: 'monitorRecord',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many monitor records',
		description: 'List the addresses a downtime monitor checks',
		list: { paged: true },
		readOnly: true,
		simplify: {
			id: field('id'),
			hostRecord: field('subdomain'),
			ip: field('ip'),
			status: code('status', CODES.enabledPaused),
			checkHost: field('host'),
			path: field('path'),
			retries: number('retry'),
			intervalMinutes: number('check_interval'),
			domainId: field('did'),
			created: time('createtime'),
		},
		fields: [
			{ ...monitor('mid', 'Only records of this monitor; leave empty for the records of all monitors'), topLevel: true, required: false },
			id('id', 'Monitor Record ID', 'Only the monitor record with this ID'),
		],
	},
	{
		endpoint: 'dns/monitorRecordStatus',
		path: 'dns/monitorRecordStatus',
		resource: 'monitorRecord',
		operation: 'setStatus',
		name: 'Set Status',
		action: 'Enable or pause a monitor record',
		description: 'Enable or pause the check of one address of a downtime monitor',
		fields: [
			monitor('mid', 'The monitor of the record'),
			locator('id', 'monitorRecord', 'Monitor Record', 'The monitor record to enable or pause', { param: 'monitorRecordId' }),
			newStatus(ENABLED_PAUSED, 'Enabled checks the address; Paused stops checking it'),
		],
	},
];
