/**
 * One Medusa provider per alternative method family, so a shop admin enables each per region. All logic is in
 * PgsProvider and the integrations; a class only names its family (payments/method-families.ts).
 */
import { FAMILIES, type MethodFamily } from "../../payments/method-families"
import { PgsProvider } from "./provider"

type Cradle = Record<string, unknown>
type Options = Record<string, unknown>
type FamilyProviderClass = (new (cradle: Cradle, options: Options) => PgsProvider) &
  Pick<typeof PgsProvider, keyof typeof PgsProvider>

/**
 * A provider class for one family: its static identifier is the family's (pp_{identifier}_{id} in Medusa).
 * Typed as the base class so the published type declarations need not spell out an anonymous class.
 */
function familyProvider(family: MethodFamily): FamilyProviderClass {
  return class extends PgsProvider {
    static override identifier = family.identifier
    protected readonly family = family
    constructor(cradle: Cradle, options: Options) {
      super(cradle, options)
    }
  }
}

export const PgsOpenBankingProvider = familyProvider(FAMILIES.openBanking)
export const PgsUpiProvider = familyProvider(FAMILIES.upi)
export const PgsWalletsProvider = familyProvider(FAMILIES.wallets)
export const PgsBankTransferProvider = familyProvider(FAMILIES.bankTransfer)
export const PgsQrCodeProvider = familyProvider(FAMILIES.qrCode)
export const PgsProviderInstantProvider = familyProvider(FAMILIES.providerInstant)
export const PgsWalletOneRedirectProvider = familyProvider(FAMILIES.walletOneRedirect)
export const PgsWalletTwoRedirectProvider = familyProvider(FAMILIES.walletTwoRedirect)
export const PgsVoucherRedirectProvider = familyProvider(FAMILIES.voucherRedirect)
export const PgsBankSchemeRedirectProvider = familyProvider(FAMILIES.bankSchemeRedirect)
export const PgsOpenbankingRedirectProvider = familyProvider(FAMILIES.openbankingRedirect)
export const PgsHostedProvider = familyProvider(FAMILIES.hosted)

export const ALTERNATIVE_PROVIDERS = [
  PgsOpenBankingProvider,
  PgsUpiProvider,
  PgsWalletsProvider,
  PgsBankTransferProvider,
  PgsQrCodeProvider,
  PgsProviderInstantProvider,
  PgsWalletOneRedirectProvider,
  PgsWalletTwoRedirectProvider,
  PgsVoucherRedirectProvider,
  PgsBankSchemeRedirectProvider,
  PgsOpenbankingRedirectProvider,
  PgsHostedProvider,
]
