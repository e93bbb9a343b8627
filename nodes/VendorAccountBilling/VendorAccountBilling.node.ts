import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { buildMethods, buildProperties, executeArea } from '../shared/api/build';
import { nodeVersions, versionedProperties } from '../shared/api/versions';
import { operationSubtitle } from '../shared/subtitle';
import { withToolDescriptions } from '../shared/api/tool-text';
import { accountBillingArea } from './area';

export class VendorAccountBilling implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Vendor Account & Billing',
		name: 'vendorAccountBilling',
		icon: { light: 'file:../../icons/billing.svg', dark: 'file:../../icons/billing.dark.svg' },
		group: ['transform'],
		...nodeVersions(accountBillingArea),
		subtitle: operationSubtitle(accountBillingArea),
		description: 'Manage the vendor account, sub-accounts and groups, and read balance, payments, invoices, coupons and logs',
		// the editor's Docs link, opened as it is (a codex URL gets ?utm_… appended, which would swallow the #heading)
		documentationUrl: 'https://github.com/vendor-cloud/n8n-nodes-vendor-cloud/blob/main/docs/nodes/vendor-account-billing.md#vendor-account--billing',
		defaults: { name: 'Vendor Account & Billing' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vendorApi', required: true }],
		properties: versionedProperties(accountBillingArea, (area) => withToolDescriptions(area, buildProperties(area))),
	};

	methods = buildMethods(accountBillingArea);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeArea(this, accountBillingArea);
	}
}
