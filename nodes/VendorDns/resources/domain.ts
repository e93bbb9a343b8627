import { CODES, DOMAIN_STATUS, YES_NO } from '../../shared/api/codes';
import type { OperationDecl } from '../../shared/api/declarations';
import { checked, choice, count, id, required, str, topLevel } from '../../shared/api/fields';
import { serializedList } from '../../shared/api/serialized';
import { code, computed, CURRENCY_NOT_NAMED, field, flag, number, time } from '../../shared/api/simplify';
import { domain, newStatus, plan } from './common';

/** Years bought: the vendor's documentation gives no default, so it is sent only when set (in Additional Fields) and the service chooses otherwise. */
const period = (description: string) => count('period', 'Period (Years)', 'a period', `${description}; not sent unless set, and the service then chooses (the vendor's documentation gives no default)`, { default: 1 });

export const planOperations: OperationDecl[] = [
	{
		endpoint: 'dns/planList',
		path: 'dns/planList',
		resource: 'plan',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many DNS plans',
		description: 'List the DNS plans a domain can be hosted on, with their price and numbers',
		list: { paged: true },
		readOnly: true,
		simplify: {
			id: field('id'),
			name: field('name'),
			price: number('price'),
			group: field('group.name'),
			strategies: flag('enable_strategy'),
			// the documentation lists these numbers without saying what they count or whether they
			// are limits: named after the fields, no meaning added
			strategyNum: number('strategy_num'),
			strategyTemplateNum: number('strategy_template_num'),
			recordNum: number('record_num'),
			monitorNum: number('monitor_num'),
			notificationMethods: computed((r) => (r.monitor_notice === undefined ? undefined : serializedList(r.monitor_notice))),
			created: time('createtime'),
		},
		notes: [CURRENCY_NOT_NAMED],
		fields: [id('id', 'Plan ID', 'Only the plan with this ID'), choice('enable_strategy', 'Resolution Strategies', YES_NO, 'Only plans with (Yes) or without (No) resolution strategies', { default: 1 })],
	},
];

export const domainOperations: OperationDecl[] = [
	{
		endpoint: 'dns/domainList',
		path: 'dns/domainList',
		resource: 'domain',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many domains',
		description: 'List the domains hosted on the DNS service, optionally only starred ones or of one status',
		list: { paged: true },
		readOnly: true,
		simplify: {
			id: field('id'),
			name: field('name'),
			status: code('status', CODES.domainStatus),
			plan: field('plan_name'),
			planId: field('plan_id'),
			recordNum: number('recordnum'),
			starred: flag('mark'),
			note: field('note'),
			created: time('createtime'),
			endTime: time('endtime'),
		},
		fields: [
			id('id', 'Domain ID', 'Only the domain with this ID'),
			choice('mark', 'Starred', YES_NO, 'Only starred (Yes) or only unstarred (No) domains', { default: 1 }),
			choice('status', 'Status', DOMAIN_STATUS, 'Only domains in this status', { default: 1 }),
		],
	},
	{
		endpoint: 'dns/domainAdd',
		path: 'dns/domainAdd',
		resource: 'domain',
		operation: 'add',
		name: 'Add',
		action: 'Add a domain',
		description: 'Host a domain on the DNS service on a plan, optionally for a number of years',
		fields: [
			required(checked(str('domain', 'Domain Name', 'The domain to host', { placeholder: 'e.g. example.com' }), { kind: 'domain' })),
			plan('pid', 'Plan the domain is hosted on (see Plan: Get Many)'),
			period('How many years the plan is bought for'),
			str('note', 'Note', 'Remark'),
		],
	},
	{
		endpoint: 'dns/domainStatus',
		path: 'dns/domainStatus',
		resource: 'domain',
		operation: 'setStatus',
		name: 'Set Status',
		action: 'Enable or pause a domain',
		description: 'Enable a domain or pause it',
		fields: [
			domain('id', 'The domain to enable or pause'),
			newStatus(
				[
					{ name: 'Enabled', value: 1 },
					{ name: 'Paused', value: 2 },
				],
				'Enabled resolves the domain; Paused stops resolving it',
			),
		],
	},
	{
		endpoint: 'dns/domainMark',
		path: 'dns/domainMark',
		resource: 'domain',
		operation: 'star',
		name: 'Star',
		action: 'Star a domain',
		description: 'Put the star marker on a domain so it can be found with the Starred filter',
		constant: { mark: 1 },
		fields: [domain('id', 'The domain to star')],
	},
	{
		endpoint: 'dns/domainMark',
		path: 'dns/domainMark',
		resource: 'domain',
		operation: 'unstar',
		name: 'Unstar',
		action: 'Unstar a domain',
		description: 'Remove the star marker from a domain',
		constant: { mark: 0 },
		fields: [domain('id', 'The domain to unstar')],
	},
	{
		endpoint: 'dns/domainNote',
		path: 'dns/domainNote',
		resource: 'domain',
		operation: 'updateNote',
		name: 'Update Note',
		action: 'Update the note of a domain',
		description: 'Replace the remark of a domain; an empty note clears it',
		fields: [domain('id', 'The domain whose note is set'), topLevel(str('note', 'Note', 'The new remark; leave empty to clear it'))],
		prepare: (body) => ({ ...body, note: body.note ?? '' }),
	},
	{
		endpoint: 'dns/domainUpgrade',
		path: 'dns/domainUpgrade',
		resource: 'domain',
		operation: 'upgrade',
		name: 'Upgrade',
		action: 'Upgrade or renew a domain plan',
		description: 'Move a domain to another plan, optionally for a number of years',
		fields: [domain('id', 'The domain to upgrade or renew'), plan('pid', 'The plan to move to (the current plan renews it)'), period('How many years are bought')],
	},
	{
		endpoint: 'dns/domainDelete',
		path: 'dns/domainDelete',
		resource: 'domain',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a domain',
		description: 'Stop hosting a domain on the DNS service',
		notice: "The domain is deleted from the DNS service; the vendor's documentation does not say what becomes of its records, monitors and strategies",
		deletes: true,
		fields: [domain('id', 'The domain to delete')],
	},
];
