import { VendorAccountBillingTrigger } from '../VendorAccountBillingTrigger/VendorAccountBillingTrigger.node';

/**
 * The Vendor Balance Trigger under the type name it had before it moved under Account & Billing
 * in n8n's node panel (`vendorBalanceTrigger`, now `vendorAccountBillingTrigger`). Hidden from the
 * panel, as n8n hides its own replaced nodes, so a workflow saved with the old name keeps loading,
 * polling and emitting exactly as before: same parameters, same state, same events.
 */
export class VendorBalanceTrigger extends VendorAccountBillingTrigger {
	constructor() {
		super();
		this.description = { ...this.description, name: 'vendorBalanceTrigger', hidden: true };
	}
}
