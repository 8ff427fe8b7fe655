import { guardKeyOf } from "../address"

describe("the card-testing guard's address", () => {
  it("counts an IPv6 client by its /64, however the address is written", () => {
    expect(guardKeyOf("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64")
    expect(guardKeyOf("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64")
    expect(guardKeyOf("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64")
    expect(guardKeyOf("::1")).toBe("::/64")
  })

  it("keeps an IPv4 client's address as it is", () => {
    expect(guardKeyOf("203.0.113.7")).toBe("203.0.113.7")
    expect(guardKeyOf("127.0.0.1")).toBe("127.0.0.1")
  })
})
