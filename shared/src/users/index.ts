// What the apps use of users/. Inside shared/src, import the files themselves.
export { createUser, getUser, listUsers } from './admin-users';
export type { UsersAdminDeps } from './ports';
export { createUserInputSchema, updateUserInputSchema } from './schemas';
export { deactivateUser, updateUser } from './update-user';
