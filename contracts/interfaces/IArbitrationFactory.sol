// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {DisputeFiling} from "./CourtTypes.sol";

/// @notice The CaseFactory calls the arbitrator makes.
interface IArbitrationFactory {
    /// @notice The filing fee in the native coin.
    /// @return The fee, in wei.
    function filingFee() external view returns (uint256);
    /// @notice Files a dispute as a case; only the factory's arbitrator.
    /// @param f The filing: court, panel size, parties, claim, evidence, arbitrable and dispute id.
    /// @return caseAddr The new case.
    function fileDispute(DisputeFiling calldata f) external payable returns (address caseAddr);
}
