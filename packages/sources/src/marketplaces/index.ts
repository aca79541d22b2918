export {
  type MarketplacePlugin,
  type ReadMarketplace,
  autoLoadedPlugins,
  fetchMarketplacePlugins,
  marketplaceListing,
  marketplacePlugin,
  readMarketplace,
} from './load.ts';
export { type InspectMarketplaceOptions, inspectMarketplace } from './inspect.ts';
export { type EntrySource, type ParsedEntry, type ParsedMarketplace, parseMarketplace } from './manifest.ts';
export { type MarketplaceLocation, autoLoadSelection, entryReference } from './resolve.ts';
