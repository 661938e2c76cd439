// A third-party seller's settings as the domain rules read them (spec "Seller").

/** commission is a fraction (0.12 means 12%); autoAccept skips the acceptance wait. */
export interface SellerSettings {
  id: string;
  commission: number;
  autoAccept: boolean;
  active: boolean;
}
