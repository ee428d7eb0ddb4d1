// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

// Who is on the court's record for a case: what the factory (ICaseRecord), the arbitrator
// (IArbitratorConsent), the registry and the court's ERC-8004 reporter (ICaseFiledHook) tell one
// another so that a party is on record only for a case it (or the arbitrable acting for it) agreed to.

/// @notice The factory's answer to whether a party of a case is on record (CaseFactory).
interface ICaseRecord {
    /// @notice Whether the case's outcome goes on `party`'s record: always for a case its plaintiff
    /// filed; for a dispute filed through the arbitrator, only for a party that is the arbitrable
    /// or had consented to it when the dispute was filed.
    /// @param caseAddr The case.
    /// @param party A party of the case.
    /// @return True when on record.
    function onRecord(address caseAddr, address party) external view returns (bool);
}
