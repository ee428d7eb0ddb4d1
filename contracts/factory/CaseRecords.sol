// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IArbitratorConsent} from "../interfaces/IArbitratorConsent.sol";
import {ICaseFiledHook} from "../interfaces/ICaseFiledHook.sol";
import {ICaseRecord} from "../interfaces/ICaseRecord.sol";
import {FactoryBase} from "./FactoryBase.sol";

/// @title Who of a case's parties is on the court's record, and the court's reporter told of each filing.
/// @notice Every case goes on its parties' records except a dispute filed through the arbitrator for
/// a party that did not agree to it (`onRecord`); the court's ERC-8004 reporter (the registry's
/// outcome hook) is told of each filing, so the agents its feedback goes to are fixed then.
abstract contract CaseRecords is FactoryBase, ICaseRecord {
    /// @notice Gas the outcome hook's `caseFiled` gets at each filing (the caller must leave this much).
    /// @return The gas.
    uint256 public constant FILED_HOOK_GAS = 150_000;

    /// @notice The transaction has too little gas left to give the outcome hook's `caseFiled` its
    /// FILED_HOOK_GAS; send it with more gas.
    /// @param required The gas that must be left.
    error NotEnoughGasForFiledHook(uint256 required);

    /// @notice A dispute filed through the arbitrator is off the record of a party that did not agree to it.
    /// @param caseAddr The case.
    /// @param party The party.
    event PartyOffRecord(address indexed caseAddr, address indexed party);

    /// @dev A dispute's parties that did not agree to the arbitrable naming them (case => party => off).
    mapping(address => mapping(address => bool)) private offRecord;

    /// @inheritdoc ICaseRecord
    function onRecord(address caseAddr, address party) external view returns (bool) {
        return !offRecord[caseAddr][party];
    }

    /// @dev Which of a dispute's parties agreed to the arbitrable naming them (the arbitrator's
    /// consent, read now and kept), and the reporter told of the filing.
    function _recordConsent(address caseAddr, address plaintiff, address defendant, address arbitrable) internal {
        bool pOn = IArbitratorConsent(msg.sender).consented(plaintiff, arbitrable);
        bool dOn = IArbitratorConsent(msg.sender).consented(defendant, arbitrable);
        if (!pOn) {
            offRecord[caseAddr][plaintiff] = true;
            emit PartyOffRecord(caseAddr, plaintiff);
        }
        if (!dOn) {
            offRecord[caseAddr][defendant] = true;
            emit PartyOffRecord(caseAddr, defendant);
        }
        _tellFiled(caseAddr, plaintiff, defendant, pOn, dOn);
    }

    /// @dev Tells the registry's outcome hook (the court's ERC-8004 reporter) of the filing, with
    /// FILED_HOOK_GAS; its failure never blocks a filing (the hook then looks the agents up when the
    /// case ends). Too little gas to give it that is refused, so no gas estimate skips it quietly.
    function _tellFiled(address caseAddr, address plaintiff, address defendant, bool pOn, bool dOn) internal {
        address hook = registry.outcomeHook();
        if (hook.code.length == 0) return;
        uint256 needed = FILED_HOOK_GAS + FILED_HOOK_GAS / 63 + 10_000;
        if (gasleft() < needed) revert NotEnoughGasForFiledHook(needed);
        try ICaseFiledHook(hook).caseFiled{gas: FILED_HOOK_GAS}(caseAddr, plaintiff, defendant, pOn, dOn) {} catch {}
    }
}
