// The links a notification carries: the order's dashboard page, and for sellers the signed answer route and its documentation.

export interface NotificationLinks {
  /** `<BASE_URL>/orders/<id>`: the order page of the dashboard. */
  orderPage: string;
  /** The signed events route a seller's integration answers on (POST, integration secret). */
  answerRoute: string;
  /** The API documentation that describes the answer route and its signature. */
  apiDocs: string;
}

export function notificationLinks(baseUrl: string, orderId: string): NotificationLinks {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    orderPage: `${base}/orders/${encodeURIComponent(orderId)}`,
    answerRoute: `${base}/api/v1/webhooks/events`,
    apiDocs: `${base}/api/v1/openapi.json`,
  };
}
