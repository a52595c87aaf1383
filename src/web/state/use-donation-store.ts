import { useContext } from 'react';
import { type DonationStore, DonationStoreContext } from './donation-store-context';

/** The shared donation state (spec section 3). Throws when used outside `DonationStoreProvider`. */
export function useDonationStore(): DonationStore {
  const store = useContext(DonationStoreContext);
  if (!store) throw new Error('useDonationStore must be used inside DonationStoreProvider');
  return store;
}
