export { type DecodedLicense, LicenseFormatError, LicensePayload, decodeLicense } from './format.ts';
export { LICENSE_ISSUER, type LicenseTrust } from './issuer.ts';
export { type LicenseLog, LicenseMonitor, type LicenseMonitorOptions, LicenseStatus } from './status.ts';
export { type LicenseState, type LicenseVerdict, licenseStateAt, verifyLicense } from './verify.ts';
