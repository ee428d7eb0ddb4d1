// The second EVM node the tests run docket against (test/chain/secondNode.test.ts): Hardhat 2's
// in-process network (EDR) served by `hardhat node`, with the dev chain's id, mnemonic and accounts.
module.exports = {
  networks: {
    hardhat: {
      chainId: 31337,
      hardfork: "cancun",
      accounts: {
        mnemonic: "test test test test test test test test test test test junk",
        count: 20,
        accountsBalance: "10000000000000000000000",
      },
    },
  },
};
