// Port `documents`: the documents an order came with, as steps read them.
export interface DocumentsPort {
  /** The order's inbound text (the `documentText` it was started with), or null. */
  inboundText(orderId: string): Promise<string | null>;
}
