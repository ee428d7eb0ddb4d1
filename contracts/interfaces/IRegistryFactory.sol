// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The registry read that names the factory (the only caller of `caseFiled`).
interface IRegistryFactory {
    /// @notice The CaseFactory.
    /// @return The factory.
    function factory() external view returns (address);
}
