import type { FieldDecl, OperationDecl } from '../../shared/api/declarations';
import { checked, choice, id, int, locator, nameStr, required, str } from '../../shared/api/fields';
import { CODES, ENABLED_CLOSED } from '../../shared/api/codes';
import { code, field, number, time } from '../../shared/api/simplify';
import { newStatus, plan, template } from './common';

const templateRecord = (description: string) =>
	locator('id', 'templateRecord', 'Template Record', description, { param: 'templateRecordId' });

/** Where a template record applies and the address it answers (tempStyAdd, tempStyUpdate). */
const placeFields = (): FieldDecl[] => [
	str('continent', 'Continent', 'Continent of the visitors this record answers', { placeholder: 'e.g. Asia' }),
	str('country', 'Country', 'Country of the visitors this record answers'),
	str('isp', 'Carrier', 'Carrier (ISP) of the visitors this record answers', { placeholder: 'e.g. telecom' }),
	str('area', 'Area', 'Region of the visitors this record answers'),
	str('province', 'Province', 'Province of the visitors this record answers'),
	str('city', 'City', 'City of the visitors this record answers'),
];
const ip = checked(str('ip', 'IP Address', 'IP address answered to these visitors', { placeholder: 'e.g. 203.0.113.10' }), { kind: 'ipList' });
const weight = int('weight', 'Weight', 'Share of answers among records of the template (default 1)', { default: 1 });
const recordStatus = choice('status', 'Status', ENABLED_CLOSED, 'Whether the record is used (default enabled)', { default: 1 });

export const templateOperations: OperationDecl[] = [
	{
		endpoint: 'dns/tempList',
		path: 'dns/tempList',
		resource: 'template',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many strategy templates',
		description: 'List the strategy templates that resolution strategies answer from',
		list: { paged: true },
		readOnly: true,
		simplify: {
			id: field('id'),
			name: field('name'),
			status: code('status', CODES.enabledClosed),
			count: number('count'),
			plan: field('planname'),
			planId: field('pid'),
			note: field('note'),
			updated: time('updatetime'),
			created: time('createtime'),
		},
		fields: [id('id', 'Template ID', 'Only the template with this ID'), id('gid', 'Resolution Group ID', 'Only templates of plans in this resolution group (see the group of a plan)')],
	},
	{
		endpoint: 'dns/tempAdd',
		path: 'dns/tempAdd',
		resource: 'template',
		operation: 'create',
		name: 'Create',
		action: 'Create a strategy template',
		description: 'Create a strategy template for a plan; fill it with template records afterwards',
		fields: [
			plan('pid', 'Plan the template belongs to'),
			required(nameStr('name', 'Name', 'Name of the template', { placeholder: 'e.g. China carriers' })),
			choice('status', 'Status', ENABLED_CLOSED, 'Whether the template can be used; not sent unless set, and the service then chooses (the vendor\'s documentation gives no default)', { default: 1 }),
			str('note', 'Note', 'Remark'),
		],
	},
	{
		endpoint: 'dns/tempUpdate',
		path: 'dns/tempUpdate',
		resource: 'template',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update a strategy template',
		description: 'Rename a strategy template or change its plan, status or note',
		fields: [
			template('id', 'The template to change'),
			{ ...plan('pid', 'New plan of the template'), required: false },
			nameStr('name', 'Name', 'New name'),
			choice('status', 'Status', ENABLED_CLOSED, 'Whether the template can be used', { default: 1 }),
			str('note', 'Note', 'New remark'),
		],
	},
	{
		endpoint: 'dns/tempDelete',
		path: 'dns/tempDelete',
		resource: 'template',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a strategy template',
		description: 'Delete a strategy template',
		notice: "The template is deleted; the vendor's documentation does not say what becomes of its records and of strategies that use it",
		deletes: true,
		fields: [template('id', 'The template to delete')],
	},
	{
		endpoint: 'dns/tempStatus',
		path: 'dns/tempStatus',
		resource: 'template',
		operation: 'setStatus',
		name: 'Set Status',
		action: 'Enable or close a strategy template',
		description: 'Enable a strategy template or close it',
		fields: [template('id', 'The template to enable or close'), newStatus(ENABLED_CLOSED, 'Enabled lets strategies use the template; Closed stops it')],
	},
];

export const templateRecordOperations: OperationDecl[] = [
	{
		endpoint: 'dns/tempStyList',
		path: 'dns/tempStyList',
		resource: 'templateRecord',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many template records',
		description: 'List the records of a strategy template: which address answers which visitors',
		list: { paged: true },
		readOnly: true,
		simplify: {
			id: field('id'),
			templateId: field('tid'),
			ip: field('ip'),
			location: field('ip_location'),
			continent: field('continent'),
			country: field('country'),
			area: field('area'),
			province: field('province'),
			city: field('city'),
			carrier: field('isp'),
			weight: number('weight'),
			status: code('status', CODES.enabledClosed),
			created: time('createtime'),
		},
		fields: [{ ...template('tid', 'Only records of this template; leave empty for the records of all templates'), topLevel: true, required: false }],
	},
	{
		endpoint: 'dns/tempStyAdd',
		path: 'dns/tempStyAdd',
		resource: 'templateRecord',
		operation: 'add',
		name: 'Add',
		action: 'Add a template record',
		description: 'Add to a strategy template an address answered to visitors of a place and carrier',
		fields: [template('tid', 'The template that gets the record'), required(ip), ...placeFields(), weight, recordStatus],
	},
	{
		endpoint: 'dns/tempStyUpdate',
		path: 'dns/tempStyUpdate',
		resource: 'templateRecord',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update a template record',
		description: 'Change the place, carrier, address, weight or status of a template record',
		fields: [template('tid', 'The template of the record'), templateRecord('The record to change'), ip, ...placeFields(), weight, recordStatus],
	},
	{
		endpoint: 'dns/tempStyDelete',
		path: 'dns/tempStyDelete',
		resource: 'templateRecord',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a template record',
		description: 'Delete one record of a strategy template',
		notice: 'The address is removed from the template',
		deletes: true,
		fields: [template('tid', 'The template of the record'), templateRecord('The record to delete')],
	},
	{
		endpoint: 'dns/tempStyStatus',
		path: 'dns/tempStyStatus',
		resource: 'templateRecord',
		operation: 'setStatus',
		name: 'Set Status',
		action: 'Enable or close a template record',
		description: 'Enable or close one record of a strategy template',
		fields: [
			template('tid', 'The template of the record'),
			templateRecord('The record to enable or close'),
			newStatus(ENABLED_CLOSED, 'Enabled answers the address; Closed stops answering it'),
		],
	},
];
