import type { ApiArea } from '../shared/api/declarations';
import { domainOperations, planOperations } from './resources/domain';
import { monitorOperations, monitorRecordOperations } from './resources/monitor';
import { recordOperations } from './resources/record';
import { strategyOperations } from './resources/strategy';
import { templateOperations, templateRecordOperations } from './resources/template';

/** Plans, domains, records, downtime monitors, strategy templates and strategies: the 36 dns rows of endpoints.tsv. */
export const dnsArea: ApiArea = {
	node: 'vendorDns',
	versions: [1],
	defaultResource: 'domain',
	defaultOperations: {
		domain: 'getAll',
		monitor: 'getAll',
		monitorRecord: 'getAll',
		plan: 'getAll',
		record: 'getAll',
		strategy: 'getAll',
		template: 'getAll',
		templateRecord: 'getAll',
	},
	resources: [
		{ value: 'domain', name: 'Domain', description: 'Domains hosted on the DNS service' },
		{ value: 'monitor', name: 'Monitor', description: 'Downtime monitors that check the addresses of records' },
		{ value: 'monitorRecord', name: 'Monitor Record', description: 'The addresses one downtime monitor checks' },
		{ value: 'plan', name: 'Plan', description: 'DNS plans with their price and limits' },
		{ value: 'record', name: 'Record', description: 'DNS records of a domain' },
		{ value: 'strategy', name: 'Resolution Strategy', description: 'Answers by carrier and place for a host record' },
		{ value: 'template', name: 'Strategy Template', description: 'Sets of addresses that resolution strategies answer from' },
		{ value: 'templateRecord', name: 'Template Record', description: 'One address of a strategy template and the visitors it answers' },
	],
	operations: [
		...planOperations,
		...domainOperations,
		...recordOperations,
		...monitorOperations,
		...monitorRecordOperations,
		...templateOperations,
		...templateRecordOperations,
		...strategyOperations,
	],
};
