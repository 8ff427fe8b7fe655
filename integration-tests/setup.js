// Medusa's test runners share MikroORM metadata through a global; clear it per test file (Medusa docs, "Testing Tools").
const { MetadataStorage } = require("@medusajs/framework/mikro-orm/core")
MetadataStorage.clear()
