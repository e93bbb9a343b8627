import { CODES, DIRECTIONS, FIREWALL_PROTOCOLS, RULE_ACTIONS, RULE_STATUS } from '../../shared/api/codes';
import type { FieldDecl, OperationDecl } from '../../shared/api/declarations';
import { checked, choice, id, int, locator, str, topLevel } from '../../shared/api/fields';
import { code, computed, field, time, type SimplifySpec } from '../../shared/api/simplify';
import { firewall } from './common';

const direction = choice('direction', 'Direction', DIRECTIONS, 'Inbound (to the host) or outbound (from the host) traffic', { default: 'in' });
const action = choice('action', 'Rule Action', RULE_ACTIONS, 'Whether matching traffic is let through or refused', { default: 'ACCEPT', param: 'ruleAction' });
/** An open list (FIREWALL_PROTOCOLS): any other protocol the service knows is entered as an expression. */
const protocol = choice(
	'protocol',
	'Protocol',
	FIREWALL_PROTOCOLS,
	'Protocol the rule matches. For another protocol the service knows (e.g. gre), switch the field to Expression and type its name.',
	{ default: 'tcp', allowOtherValues: true },
);
const sourcePort = checked(int('sourceport', 'Source Port', 'Source port the rule matches (1-65535)'), { kind: 'port' });
const destPort = str('destport', 'Destination Port', 'Port the rule matches; the service decides which forms it takes (usually a port, a range such as 8000-8080 or a comma list)', {
	placeholder: 'e.g. 22 or 8000-8080 or 80,443',
});
const source = checked(str('source', 'Source', 'Source IP address, optionally with a /prefix (the service decides whether it takes IPv6)', { placeholder: 'e.g. 0.0.0.0/0' }), { kind: 'ipOrCidr' });
const destination = checked(str('destination', 'Destination', 'Destination IP address, optionally with a /prefix (the service decides whether it takes IPv6)', { placeholder: 'e.g. 10.0.0.0/8' }), {
	kind: 'ipOrCidr',
});
const status = choice('status', 'Status', RULE_STATUS, 'Whether the rule is in force', { default: 1 });
const note = str('note', 'Note', 'Remark, e.g. what the rule is for');

/** The firewall whose rules the rule dropdown lists; not sent (update and delete take the rule ID only). */
const listFirewall: FieldDecl = {
	...firewall('fid', 'The firewall whose rules are listed below (not sent)'),
	topLevel: true,
	required: false,
	notSent: true,
};
const rule = (description: string) => locator('id', 'firewallRule', 'Rule', description, { param: 'ruleId' });

/** Simplified firewall rules: as listed, and as Add, Update and Delete answer them (the rule; Add names its firewall only as `firewall_id`). */
export const RULE_SIMPLE: SimplifySpec = {
	id: field('id'),
	// one name for one thing: `firewall` is the firewall's ID as the Firewall field takes it (the list's `fid`; Add answers
	// none, so there it is the one the request named), `firewallId` its security group ID (`firewall_id`) as on a firewall
	// record, where the answer gives it (Add, Update, Delete)
	firewall: computed((r, ctx) => (r.fid !== undefined ? r.fid : ctx.body.fid !== undefined ? String(ctx.body.fid) : undefined) as string | undefined),
	firewallId: field('firewall_id'),
	direction: code('direction', CODES.direction),
	action: code('action', CODES.ruleAction),
	protocol: field('protocol'),
	sourcePort: field('sourceport'),
	destinationPort: field('destport'),
	source: field('source'),
	destination: field('destination'),
	status: code('status', CODES.ruleStatus),
	note: field('note'),
	updated: time('updatetime'),
	created: time('createtime'),
};

export const firewallRuleOperations: OperationDecl[] = [
	{
		endpoint: 'instance/firewallRuleList',
		path: 'instance/firewallRuleList',
		resource: 'firewallRule',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many firewall rules',
		description: 'List the rules of a firewall (or of many firewalls), optionally of one direction or status',
		list: { paged: true },
		readOnly: true,
		simplify: RULE_SIMPLE,
		fields: [
			{ ...firewall('fid', 'Only rules of this firewall; leave empty for the rules of all firewalls'), topLevel: true, required: false },
			id('id', 'Rule ID', 'Only the rule with this ID'),
			choice('direction', 'Direction', DIRECTIONS, 'Only rules of this direction', { default: 'in' }),
			choice('status', 'Status', RULE_STATUS, 'Only enabled or only disabled rules', { default: 1 }),
		],
	},
	{
		endpoint: 'instance/firewallRuleAdd',
		path: 'instance/firewallRuleAdd',
		simplify: RULE_SIMPLE,
		resource: 'firewallRule',
		operation: 'add',
		name: 'Add',
		action: 'Add a firewall rule',
		description: 'Add a rule to a firewall that accepts or rejects traffic by direction, protocol, port and address',
		fields: [
			firewall('fid', 'The firewall that gets the rule'),
			topLevel(direction),
			topLevel(action),
			topLevel(protocol),
			topLevel({ ...destPort, show: { protocol: ['tcp', 'udp'] } }),
			topLevel(source),
			topLevel(status),
			sourcePort,
			destination,
			note,
		],
	},
	{
		endpoint: 'instance/firewallRuleUpdate',
		path: 'instance/firewallRuleUpdate',
		simplify: RULE_SIMPLE,
		resource: 'firewallRule',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update a firewall rule',
		description: 'Change the direction, action, protocol, ports, addresses, status or note of a firewall rule',
		fields: [listFirewall, rule('The rule to change'), direction, action, protocol, sourcePort, destPort, source, destination, status, note],
	},
	{
		endpoint: 'instance/firewallRuleDelete',
		path: 'instance/firewallRuleDelete',
		simplify: RULE_SIMPLE,
		resource: 'firewallRule',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a firewall rule',
		description: 'Delete one rule from a firewall',
		notice: 'The rule stops applying to the hosts under the firewall',
		deletes: true,
		fields: [listFirewall, rule('The rule to delete')],
	},
];
