// What other features may use of contacts and custom properties (issue 15).
export { contactKeys, contactsApi } from './api/contacts.ts';
export { propertiesApi, propertyKeys } from './api/properties.ts';
export { ChatProperties } from './components/ChatProperties.tsx';
// issue 41 §7: the customer's identity in a chat's details panel
export { ChatContact } from './components/ChatContact.tsx';
