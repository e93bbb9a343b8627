import { VendorCdnTrigger } from '../VendorCdnTrigger/VendorCdnTrigger.node';

/**
 * The Vendor Task Trigger under the type name it had before it moved under CDN in n8n's node
 * panel (`vendorTaskTrigger`, now `vendorCdnTrigger`). Hidden from the panel, as n8n hides its own
 * replaced nodes, so a workflow saved with the old name keeps loading, polling and emitting
 * exactly as before: same parameters, same state, same events.
 */
export class VendorTaskTrigger extends VendorCdnTrigger {
	constructor() {
		super();
		this.description = { ...this.description, name: 'vendorTaskTrigger', hidden: true };
	}
}
