export {
  type MarketplacePlugin,
  type ReadMarketplace,
  autoLoadedPlugins,
  fetchMarketplacePlugins,
  marketplaceListing,
  readMarketplace,
} from './load.ts';
export { type EntrySource, type ParsedEntry, type ParsedMarketplace, parseMarketplace } from './manifest.ts';
export { type MarketplaceLocation, autoLoadSelection, entryReference } from './resolve.ts';
