import type { FieldDecl, OperationDecl } from '../../shared/api/declarations';
import { choice, count, id, locator, nameStr, required, topLevel } from '../../shared/api/fields';
import { CODES, ENABLED_PAUSED, STRATEGIES } from '../../shared/api/codes';
import { code, field, number, time } from '../../shared/api/simplify';
import { domain, newStatus, template } from './common';


const strategy = (description: string) => locator('id', 'strategy', 'Resolution Strategy', description, { param: 'strategyId' });
const subdomain = (extra: Partial<FieldDecl> = {}) =>
	nameStr('subdomain', 'Host Record', 'Host record the strategy answers for (@ for the domain itself)', { placeholder: 'e.g. www', ...extra });
const sty = choice('sty', 'Strategy', STRATEGIES, 'How visitors are told apart; the plan decides which are allowed', { default: 'auto' });
const maxip = count('maxip', 'Max IPs', 'a number of IP addresses', 'Most addresses returned in one answer; the plan may set a limit. Not sent unless set, and the service then chooses (the vendor\'s documentation gives no default).', { default: 1 });
const status = choice('status', 'Status', ENABLED_PAUSED, 'Whether the strategy is in force (default enabled)', { default: 1 });

export const strategyOperations: OperationDecl[] = [
	{
		endpoint: 'dns/styList',
		path: 'dns/styList',
		resource: 'strategy',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many resolution strategies',
		description: 'List the resolution strategies of a domain (or of many domains)',
		list: { paged: true },
		readOnly: true,
		simplify: {
			id: field('id'),
			domain: field('domain_name'),
			domainId: field('domain_id'),
			hostRecord: field('subdomain'),
			strategy: code('sty', CODES.strategy, 'sty_en'),
			maxIps: number('maxip'),
			template: field('temp_name'),
			templateId: field('temp_id'),
			status: code('status', CODES.enabledPaused),
			created: time('createtime'),
		},
		fields: [{ ...domain('did', 'Only strategies of this domain; leave empty for the strategies of all domains'), topLevel: true, required: false }, id('id', 'Strategy ID', 'Only the strategy with this ID')],
	},
	{
		endpoint: 'dns/styAdd',
		path: 'dns/styAdd',
		resource: 'strategy',
		operation: 'add',
		name: 'Add',
		action: 'Add a resolution strategy',
		description: "Answer a host record from a strategy template's addresses by the visitor's carrier and place",
		fields: [
			domain('did', 'The domain of the host record'),
			required(subdomain({ default: '@' })),
			required(sty),
			template('tid', 'Template whose records give the addresses'),
			maxip,
			topLevel(status),
		],
	},
	{
		endpoint: 'dns/styUpdate',
		path: 'dns/styUpdate',
		resource: 'strategy',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update a resolution strategy',
		description: 'Change the host record, strategy, template, max IPs or status of a resolution strategy',
		fields: [
			domain('did', 'The domain of the strategy'),
			strategy('The strategy to change'),
			subdomain(),
			sty,
			{ ...template('tid', 'New template'), required: false },
			maxip,
			status,
		],
	},
	{
		endpoint: 'dns/styDelete',
		path: 'dns/styDelete',
		resource: 'strategy',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a resolution strategy',
		description: 'Delete a resolution strategy',
		notice: 'The strategy is deleted',
		deletes: true,
		fields: [domain('did', 'The domain of the strategy'), strategy('The strategy to delete')],
	},
	{
		endpoint: 'dns/styStatus',
		path: 'dns/styStatus',
		resource: 'strategy',
		operation: 'setStatus',
		name: 'Set Status',
		action: 'Enable or pause a resolution strategy',
		description: 'Enable or pause a resolution strategy',
		fields: [domain('did', 'The domain of the strategy'), strategy('The strategy to enable or pause'), newStatus(ENABLED_PAUSED, 'Enabled applies the strategy; Paused stops it')],
	},
];
