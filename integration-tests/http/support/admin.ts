/** An admin user and a bearer token for the dashboard's API, made the way Medusa's own test helpers do. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, generateJwtToken, Modules } from "@medusajs/framework/utils"

export async function adminToken(container: MedusaContainer, profile: { email?: string; first_name?: string; last_name?: string } = {}): Promise<string> {
  const userModule = container.resolve(Modules.USER)
  const authModule = container.resolve(Modules.AUTH)
  const email = profile.email ?? `admin-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.com`
  const user = await userModule.createUsers({ ...profile, email })
  const identity = await authModule.createAuthIdentities({
    provider_identities: [{ provider: "emailpass", entity_id: email }],
    app_metadata: { user_id: user.id },
  })
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE)
  const { jwtSecret, jwtOptions } = config.projectConfig.http as { jwtSecret: string; jwtOptions?: object }
  return generateJwtToken(
    { actor_id: user.id, actor_type: "user", auth_identity_id: identity.id, app_metadata: { user_id: user.id } },
    { secret: jwtSecret, expiresIn: "1d", jwtOptions },
  )
}
