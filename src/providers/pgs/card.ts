/** Stub card provider (identifier `pgs`) until the base class lands. */
import { AbstractPaymentProvider, PaymentSessionStatus } from "@medusajs/framework/utils"

export class PgsCardProvider extends AbstractPaymentProvider<Record<string, unknown>> {
  static override identifier = "pgs"
  constructor(cradle: Record<string, unknown>, options: Record<string, unknown>) {
    super(cradle, options)
  }
  async initiatePayment() {
    return { id: "stub", data: {} }
  }
  async authorizePayment() {
    return { status: PaymentSessionStatus.ERROR, data: {} }
  }
  async capturePayment() {
    return { data: {} }
  }
  async cancelPayment() {
    return { data: {} }
  }
  async deletePayment() {
    return { data: {} }
  }
  async getPaymentStatus() {
    return { status: PaymentSessionStatus.PENDING, data: {} }
  }
  async refundPayment() {
    return { data: {} }
  }
  async retrievePayment() {
    return { data: {} }
  }
  async updatePayment() {
    return { data: {} }
  }
  async getWebhookActionAndData() {
    return { action: "not_supported" as const }
  }
}
