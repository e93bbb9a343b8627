import { VendorCdnTrigger } from '../VendorCdnTrigger/VendorCdnTrigger.node';

/**
 * The Vendor Task Trigger under the type name it had before it moved under CDN in n8n's node
 * panel (`vendorTaskTrigger`, now `vendorCdnTrigger`). Hidden from the panel, as n8n hides its own
 * replaced nodes, so a workflow saved with the old name keeps loading, polling and emitting
 * exactly as before: same parameters, same state, same events. Its display name is
 * its own: n8n records an installed package's nodes by display name (installed_nodes, primary key
 * on the name, in 1.x and 2.x), and a second node with the current trigger's name made Settings →
 * Community Nodes fail the install ("There is already an entry with this name").
 */
export class VendorTaskTrigger extends VendorCdnTrigger {
	constructor() {
		super();
		this.description = { ...this.description, name: 'vendorTaskTrigger', displayName: 'Vendor Task (Old Type Name) Trigger', hidden: true };
	}
}
