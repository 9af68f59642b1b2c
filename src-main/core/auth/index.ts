export { AuthManager, type AuthManagerOptions } from './manager';
export { InteractiveAuth, type InteractiveAuthOptions } from './interactive';
export { CrossAppAccessError, MachineAuth } from './machine';
export { type LoginOptions, type RemoteAuth, type RemoteServerAuth } from './server-auth';
export { challengeParams } from './challenge';
export { NeedsLoginError, SwitchboardOAuthProvider, resourceKey, scopeUnion, type InteractiveSignIn, type ProviderOptions, type SignInNeed } from './provider';
export { LoopbackListener, LoopbackError, defaultLoopbackTimeoutMs, type CallbackParams } from './loopback';
export { checkAuthorizationUrl, isLoopbackUrl, UnsafeAuthorizationUrlError, type UrlOpener } from './browser';
export { OAuthStore, isOAuthSecretName, oauthSecretValues } from './store';
