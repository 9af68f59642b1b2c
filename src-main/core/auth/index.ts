export { AuthManager, CrossAppAccessError, MachineAuth, ServerAuth, type AuthManagerOptions, type LoginOptions, type RemoteServerAuth } from './manager';
export { NeedsLoginError, SwitchboardOAuthProvider, resourceKey, scopeUnion, type InteractiveSignIn, type ProviderOptions, type SignInNeed } from './provider';
export { LoopbackListener, LoopbackError, defaultLoopbackTimeoutMs, type CallbackParams } from './loopback';
export { checkAuthorizationUrl, isLoopbackUrl, UnsafeAuthorizationUrlError, type UrlOpener } from './browser';
export { OAuthStore, isOAuthSecretName, oauthSecretValues } from './store';
