import type { FieldDecl, OperationDecl } from '../../shared/api/declarations';
import { checked, locator, required, secret, str, text } from '../../shared/api/fields';
import { single } from './channel';

const CERT = { kind: 'pattern' as const, regex: '-----BEGIN CERTIFICATE-----', message: 'paste the certificate in PEM form, starting with -----BEGIN CERTIFICATE-----' };
const KEY = { kind: 'pattern' as const, regex: '-----BEGIN [A-Z ]*PRIVATE KEY-----', message: 'paste the private key in PEM form, starting with -----BEGIN PRIVATE KEY-----' };

const certificate = () => checked(text('ssl_crt', 'Certificate', 'Certificate content in PEM form', { placeholder: 'e.g. -----BEGIN CERTIFICATE-----' }), CERT);
const privateKey = (): FieldDecl => ({ ...checked(secret('ssl_key', 'Private Key', 'Private key content in PEM form; it is never shown in output'), KEY), multiline: true });
const caCertificate = () => checked(text('ssl_ca', 'CA Certificate', 'Certificate chain of the issuing CA in PEM form'), CERT);

export const certificateOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/sslList',
		path: 'cdn/sslList',
		resource: 'certificate',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many certificates',
		description: 'List the SSL certificates uploaded for channels',
		list: { paged: true },
		read: true,
	},
	{
		endpoint: 'cdn/sslList',
		path: 'cdn/sslList',
		resource: 'certificate',
		operation: 'get',
		name: 'Get',
		action: 'Get a certificate',
		description: 'Get one SSL certificate with its common name and alternative names',
		read: true,
		fields: [locator('id', 'certificate', 'Certificate', 'The certificate to get')],
		after: (records, ctx, body) => single(records, ctx, body, 'Certificate'),
	},
	{
		endpoint: 'cdn/sslAdd',
		path: 'cdn/sslAdd',
		resource: 'certificate',
		operation: 'create',
		name: 'Create',
		action: 'Create a certificate',
		description: 'Upload an SSL certificate and its private key for use by channels',
		fields: [
			required(str('name', 'Name', 'Name of the certificate', { placeholder: 'e.g. example-com-2026' })),
			required(certificate()),
			required(privateKey()),
			caCertificate(),
		],
	},
	{
		endpoint: 'cdn/sslUpdate',
		path: 'cdn/sslUpdate',
		resource: 'certificate',
		operation: 'update',
		name: 'Update',
		action: 'Update a certificate',
		description: 'Rename a certificate or replace its content, key or CA chain',
		fields: [locator('id', 'certificate', 'Certificate', 'The certificate to change'), str('name', 'Name', 'New name'), certificate(), privateKey(), caCertificate()],
	},
	{
		endpoint: 'cdn/sslDelete',
		path: 'cdn/sslDelete',
		resource: 'certificate',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a certificate',
		description: 'Delete an SSL certificate that no channel uses',
		notice: 'Channels cannot use a deleted certificate; it has to be uploaded again',
		deletes: true,
		fields: [locator('id', 'certificate', 'Certificate', 'The certificate to delete')],
	},
];
