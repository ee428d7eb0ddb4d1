// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice Not part of ERC-8004: our IdentityRegistry's index from an agent wallet to its agent,
/// which lets the court find a party's agent without the party linking it first.
interface IAgentWalletIndex {
    /// @notice The agent whose wallet `wallet` is (the latest to take it).
    /// @param wallet The wallet.
    /// @return The agent id, or 0 if none.
    function agentIdOf(address wallet) external view returns (uint256);
}
