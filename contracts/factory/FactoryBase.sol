// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CourtRegistry} from "../courts/CourtRegistry.sol";

/// @title What every part of the CaseFactory stands on: its owner and the court registry it files into.
/// @notice The CaseFactory is one contract at one address composed of parts, each in its own file
/// (FilingFees, TokenFees, CaseIndex, CaseRecords, JudgeSeating); this one holds the owner the
/// others answer to and the registry they all call.
abstract contract FactoryBase {
    /// @notice Only the factory's owner may do this.
    error OnlyOwner();
    /// @notice A parameter is out of range (a zero address, a token fee of zero, ...).
    error InvalidParameter();

    /// @notice The factory has a new owner.
    /// @param previousOwner The owner before.
    /// @param newOwner The owner now.
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    /// @notice Who sets fees and the arbitrator, returns stray tokens and, where `manualSeating`, seats judges by hand.
    /// @return The owner.
    address public owner;
    /// @notice The court registry: courts and their terms, judges, sortition.
    /// @return The CourtRegistry.
    CourtRegistry public immutable registry;

    /// @param registry_ The court registry (courts and their terms, judges).
    constructor(CourtRegistry registry_) {
        owner = msg.sender;
        registry = registry_;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert OnlyOwner();
        _;
    }

    /// @notice Hands the factory to a new owner; only the owner.
    /// @param newOwner The new owner (not zero).
    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert InvalidParameter();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }
}
