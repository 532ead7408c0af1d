/** Whether an optional GraphQL input field was given: absent and explicit null both mean "not set". */
export const isSet = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;
