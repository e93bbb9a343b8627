import type { IDataObject } from 'n8n-workflow';

import type { FieldDecl, OperationDecl } from '../../shared/api/declarations';
import { ACCELERATION_TYPES, CODES, PERMISSION_TYPES, SUB_ACCOUNT_STATUS, YES_NO_STRING } from '../../shared/api/codes';
import { checked, choice, locator, nameStr, required, secret, str } from '../../shared/api/fields';
import { code, field, time } from '../../shared/api/simplify';

/** Fields of a sub-account save besides username/password (create) or uid (modify). */
const subAccountFields: FieldDecl[] = [
	checked(str('mail', 'E-Mail', 'E-mail address of the sub-account'), { kind: 'email' }),
	str('phone', 'Phone', 'Mobile phone number; the service decides which forms it accepts'),
	{ ...locator('gid', 'group', 'Group', 'Permission group of the sub-account'), required: false },
	choice('status', 'Status', SUB_ACCOUNT_STATUS, 'Whether the sub-account may log in', { default: 1 }),
	{
		wire: 'cdnconfig',
		displayName: 'CDN Configurations',
		kind: 'rows',
		description: 'Acceleration types and billing types the sub-account may use',
		rows: {
			itemName: 'Configuration',
			fields: [
				required(choice('type', 'Acceleration Type', ACCELERATION_TYPES, undefined, { default: 'cloud' })),
				required({ ...str('billtype', 'Billing Type', 'Billing type offered for this acceleration type (see CDN: Acceleration Profile)'), kind: 'options', optionsFrom: 'billingType' }),
			],
			serialize: (rows: IDataObject[]) => rows,
		},
	},
	nameStr('contactname', 'Contact Name'),
	str('tel', 'Telephone'),
	str('fax', 'Fax'),
	str('card', 'ID Card Number'),
	str('address', 'Address'),
	str('company', 'Company'),
	choice('recieve_mail', 'Receive Mail', YES_NO_STRING, 'Whether notifications are sent by e-mail', { default: '1' }),
	choice('recieve_sms', 'Receive SMS', YES_NO_STRING, 'Whether notifications are sent by SMS', { default: '1' }),
	checked(str('other_mail', 'Other E-Mails', 'Further notification addresses, comma-separated'), { kind: 'emailList' }),
	str('other_phone', 'Other Phones', 'Further notification phone numbers, comma-separated; the service decides which forms it accepts'),
	choice('daily_report', 'Daily Report', YES_NO_STRING, 'Whether the daily report is sent', { default: '1' }),
	choice('week_report', 'Weekly Report', YES_NO_STRING, 'Whether the weekly report is sent', { default: '1' }),
	choice('month_report', 'Monthly Report', YES_NO_STRING, 'Whether the monthly report is sent', { default: '1' }),
];

export const subAccountOperations: OperationDecl[] = [
	{
		endpoint: 'profile/subaccountList',
		path: 'profile/subaccountList',
		resource: 'subAccount',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many sub-accounts',
		description: 'List the sub-accounts of the account',
		list: { paged: true },
		readOnly: true,
		simplify: {
			id: field('uid'),
			username: field('name'),
			email: field('mail'),
			phone: field('phone'),
			status: code('status', CODES.subAccountStatus),
			group: field('group.name'),
			groupId: field('gid'),
			contactName: field('contactname'),
			company: field('company'),
			platform: field('platform_zh'),
			updated: time('updatetime'),
			created: time('created'),
		},
	},
	{
		endpoint: 'profile/update (sub-account save)',
		path: 'profile/update',
		resource: 'subAccount',
		operation: 'create',
		name: 'Create',
		action: 'Create a sub-account',
		description: 'Create a sub-account that logs in on its own and acts under its group permissions',
		fields: [
			required(nameStr('username', 'Username', 'Log-in name of the sub-account; the service sets the rules (often up to 32 letters, digits or _)')),
			required(secret('password', 'Password', 'Password of the sub-account; it is sent twice as the service asks, and the service sets the rules')),
			...subAccountFields,
		],
		prepare: (body) => ({ uid: '', ...body, password2: body.password }),
	},
	{
		endpoint: 'profile/update (sub-account save)',
		path: 'profile/update',
		resource: 'subAccount',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update a sub-account',
		description: 'Change a sub-account: log-in name, group, status, contact details or password',
		fields: [
			locator('uid', 'subAccount', 'Sub-Account', 'The sub-account to change'),
			nameStr('username', 'Username', 'New log-in name of the sub-account; the service sets the rules'),
			secret('password', 'Password', 'New password of the sub-account'),
			...subAccountFields,
		],
		prepare: (body) => (body.password !== undefined ? { ...body, password2: body.password } : body),
	},
	{
		endpoint: 'profile/subaccountPerm',
		path: 'profile/subaccountPerm',
		resource: 'subAccount',
		operation: 'setPermissions',
		name: 'Set Resource Permissions',
		action: 'Set resource permissions of a sub-account',
		description: 'Choose which hosts, disks, firewalls, networks, channels or domains a sub-account may use, by ID',
		fields: [
			locator('uid', 'subAccount', 'Sub-Account', 'The sub-account whose resources are set'),
			{
				wire: 'perms',
				displayName: 'Permissions',
				kind: 'rows',
				topLevel: true,
				description:
					'One row per resource type with the IDs the sub-account may use. A row with no IDs sends an empty list for its type, and no row at all sends no type (perms {}); what an empty list means is the service\'s to say (the vendor\'s documentation does not).',
				rows: {
					itemName: 'Resource Type',
					fields: [
						required(choice('type', 'Resource Type', PERMISSION_TYPES, undefined, { default: 1 })),
						checked(str('ids', 'Resource IDs', 'IDs of the hosts, disks, firewalls, networks, channels or domains, comma-separated; empty sends an empty list for this type', { placeholder: 'e.g. 12,15' }), {
							kind: 'pattern',
							regex: '^\\s*\\d+(\\s*,\\s*\\d+)*\\s*$',
							message: 'give numeric IDs separated by commas',
						}),
					],
					serialize: (rows: IDataObject[]) => {
						const perms: Record<string, number[]> = {};
						for (const r of rows) {
							const ids = r.ids === undefined ? [] : String(r.ids).split(',').map((x) => Number(x.trim()));
							perms[String(r.type)] = [...(perms[String(r.type)] ?? []), ...ids];
						}
						return perms;
					},
				},
			},
		],
		// no row: an empty perms, sent as such (the body always names perms)
		prepare: (body) => ({ ...body, perms: body.perms ?? {} }),
	},
];
