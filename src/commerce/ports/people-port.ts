// Port `people`: the service's team as steps address it (who `operations` is).
export interface PeoplePort {
  /** The emails of every enabled operator, sorted. */
  operatorEmails(): Promise<string[]>;
}
